package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
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

  /**
   * As {@link #raised}, with the lines cut into two units at {@code cut}: the second continues the
   * first, its waiting lines answered when it follows it (as the units of a file read in parts are
   * merged). Its lines' exceptions are named in the order one pass finds them.
   */
  private static List<String> raisedInTwoUnits(int cut, String... lines) {
    Tracebacks first = new Tracebacks();
    Tracebacks second = new Tracebacks();
    second.continuing();
    List<String> out = new ArrayList<>();
    List<String> later = new ArrayList<>(); // the second unit's own, after its waiting lines' answers
    EvidenceSlot slot = new EvidenceSlot();
    slot.source = "x.log";
    for (int i = 0; i < lines.length; i++) {
      byte[] b = lines[i].getBytes(StandardCharsets.UTF_8);
      int at = Envelope.afterQuoting(b, 0, b.length);
      Tracebacks t = i < cut ? first : second;
      if (t.raisedAt(b, at, b.length, at)) {
        (i < cut ? out : later).add(lines[i].substring(at));
      } else if (t.waitingException()) {
        slot.at(b, at, b.length, i + 1);
        t.waitWith(slot);
      }
    }
    EvidenceList answered = new EvidenceList();
    first.follow(second, answered, 0);
    answered.items().forEach(ev -> out.add(ev.text()));
    out.addAll(later);
    return out;
  }

  static List<String[]> sequences() {
    return List.of(
        new String[] {"Traceback (most recent call last):", "  File \"/workspace/train.py\", line 88, in <module>",
            "    main()", "    ^^^^^^", "  File \"/workspace/train.py\", line 60, in main", "    x",
            "ValueError: too many values to unpack (expected 2)", "ValueError: again, after it"},
        new String[] {"Traceback (most recent call last):", "  File \"a.py\", line 1, in f", "KeyError: 'x'",
            "During handling of the above exception, another exception occurred:", "Traceback (most recent call last):",
            "  File \"a.py\", line 3, in g", "mod.sub.CustomFailure"},
        new String[] {"> Traceback (most recent call last):", ">   File \"a.py\", line 1, in f", ">     name_alone", ">",
            "> RuntimeError: boom"},
        // an indented header and an indented exception among a traceback's frames: frames, in one pass
        new String[] {"Traceback (most recent call last):", "  File \"a.py\", line 1, in f",
            "    Traceback (most recent call last):", "    ValueError: quoted in a frame", "  File \"b.py\", line 2, in g",
            "OSError: the real one", "  Traceback (most recent call last):", "    File \"c.py\", line 3, in h",
            "  IndentedError: its own", "step 5"},
        new String[] {"Traceback (most recent call last):", "  File \"a.py\", line 1, in f", "step 100 loss 0.5",
            "ValueError: later"},
        new String[] {"  File \"a.py\", line 1, in f", "    x()", "  ValueError: not after a header", "  Traceback (most recent call last):",
            "      File \"a.py\", line 9, in z", "  TypeError: after an indented one", "RuntimeError: closed already"});
  }

  /** Cut anywhere, a traceback's exception is found as one pass finds it. */
  @Test
  void twoUnitsCutAnywhereAnswerAsOnePass() {
    for (String[] lines : sequences()) {
      List<String> onePass = raised(lines);
      for (int cut = 0; cut <= lines.length; cut++) {
        assertThat(raisedInTwoUnits(cut, lines)).as("cut before line %d of %s", cut, lines[0]).isEqualTo(onePass);
      }
    }
    assertThat(raised(sequences().get(3))).containsExactly("OSError: the real one", "IndentedError: its own");
  }

  /** A unit with no line at indentation 0 ends where its waiting lines lead from the state before it. */
  @Test
  void aUnitOfFramesOnlyCarriesTheOpenTracebackOn() {
    String[] lines = {"Traceback (most recent call last):", "  File \"a.py\", line 1, in f", "    x()",
        "  File \"b.py\", line 2, in g", "    y()", "ValueError: three units later"};
    Tracebacks a = new Tracebacks();
    Tracebacks b = new Tracebacks();
    Tracebacks c = new Tracebacks();
    b.continuing();
    c.continuing();
    EvidenceSlot slot = new EvidenceSlot();
    slot.source = "x.log";
    Tracebacks[] units = {a, a, b, b, b, c};
    for (int i = 0; i < lines.length; i++) {
      byte[] bytes = lines[i].getBytes(StandardCharsets.UTF_8);
      assertThat(units[i].raisedAt(bytes, 0, bytes.length, Envelope.afterQuoting(bytes, 0, bytes.length))).isFalse();
      if (units[i].waitingException()) {
        slot.at(bytes, 0, bytes.length, i + 1);
        units[i].waitWith(slot);
      }
    }
    EvidenceList found = new EvidenceList();
    a.follow(b, found, 0);
    assertThat(found.count()).isZero();
    a.follow(c, found, 0);
    assertThat(found.items()).extracting(Evidence::text).containsExactly("ValueError: three units later");
    assertThat(found.items()).extracting(Evidence::line).containsExactly(6L);
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
