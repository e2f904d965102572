package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Python's traceback format: the exception's line at the header's indentation ends it. */
class TracebacksTest {
  /** The lines (of no NCCL reader) the state machine calls exceptions, as it is fed them in order. */
  private static List<String> raised(String... lines) {
    Tracebacks t = new Tracebacks();
    List<String> out = new ArrayList<>();
    for (String line : lines) {
      byte[] b = line.getBytes(StandardCharsets.UTF_8);
      int at = Envelope.afterQuoting(b, 0, b.length);
      if (t.raisedAt(b, at, b.length, at)) {
        out.add(line.substring(at));
      }
    }
    return out;
  }

  @Test
  void anExceptionAfterItsFramesEndsTheTraceback() {
    assertThat(raised("Traceback (most recent call last):", "  File \"/workspace/train.py\", line 88, in <module>",
        "    main()", "    ^^^^^^", "  File \"/workspace/train.py\", line 60, in main", "    x",
        "ValueError: too many values to unpack (expected 2)", "ValueError: again, after it"))
        .containsExactly("ValueError: too many values to unpack (expected 2)");
  }

  @Test
  void chainedExceptionsAreEachRead() {
    assertThat(raised("Traceback (most recent call last):", "  File \"a.py\", line 1, in f", "KeyError: 'x'",
        "During handling of the above exception, another exception occurred:", "Traceback (most recent call last):",
        "  File \"a.py\", line 3, in g", "mod.sub.CustomFailure")).containsExactly("KeyError: 'x'", "mod.sub.CustomFailure");
  }

  @Test
  void aPastesQuotingIsTheHeadersIndentation() {
    assertThat(raised("> Traceback (most recent call last):", ">   File \"a.py\", line 1, in f", ">     name_alone",
        "> RuntimeError: boom")).containsExactly("RuntimeError: boom");
  }

  /** Another program's line that is neither a frame nor an exception closes the traceback. */
  @Test
  void anotherLineClosesIt() {
    assertThat(raised("Traceback (most recent call last):", "  File \"a.py\", line 1, in f", "step 100 loss 0.5",
        "ValueError: later")).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"ValueError", "ValueError: x", "a.b_c.D9: y", "_Private:", "KeyboardInterrupt"})
  void exceptionLines(String line) {
    assertThat(raised("Traceback (most recent call last):", "  File \"a.py\", line 1, in f", line)).containsExactly(line);
  }

  @ParameterizedTest
  @ValueSource(strings = {"INFO:root:loaded", "step 1", "9Error: x", "a..b: x", "a.: x", "Error:x", "(Error): x",
      "Traceback (most recent call last): extra"})
  void otherLinesAreNoException(String line) {
    assertThat(raised("Traceback (most recent call last):", "  File \"a.py\", line 1, in f", line)).isEmpty();
  }

  @Test
  void noHeaderNoException() {
    assertThat(raised("  File \"a.py\", line 1, in f", "ValueError: x", "Traceback (most recent call last) x",
        "ValueError: y")).isEmpty();
  }
}
