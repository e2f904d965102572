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
      int[] text = text(b);
      if (t.raisedAt(b, 0, text[0], b.length, text[1])) {
        out.add(line.substring(text[0]));
      }
    }
    return out;
  }

  /** Where the line's text starts and its indentation, as the parser finds them (LogParser.textAfter). */
  private static int[] text(byte[] b) {
    int k = Envelope.afterWrappers(b, 0, b.length);
    int m = k < b.length && b[k] == ' ' ? Envelope.afterLabel(b, k, b.length) : k;
    int t = Envelope.afterQuoting(b, m, b.length);
    return new int[] {t, t - m};
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
      int[] text = text(b);
      Tracebacks t = i < cut ? first : second;
      if (t.raisedAt(b, 0, text[0], b.length, text[1])) {
        (i < cut ? out : later).add(lines[i].substring(text[0]));
      } else if (t.waitingException()) {
        slot.at(b, text[0], b.length, i + 1);
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
            "      File \"a.py\", line 9, in z", "  TypeError: after an indented one", "RuntimeError: closed already"},
        interleavedPods(), interleavedRanks(), interleavedSenders(),
        // both Pods' tracebacks at once: the later header takes over (one state), its exception is found
        new String[] {"[pod/w-0/t] Traceback (most recent call last):", "[pod/w-1/t] Traceback (most recent call last):",
            "[pod/w-0/t]   File \"a.py\", line 1, in f", "[pod/w-1/t]   File \"a.py\", line 1, in f",
            "[pod/w-0/t] ValueError: w-0's", "[pod/w-1/t] ValueError: w-1's", "[pod/w-0/t] KeyError: after it"});
  }

  /**
   * kubectl logs -f --prefix over two Pods: the other Pod's lines fall between one Pod's traceback's
   * (its progress, its own exception-like "Name: text" lines, a line of its own at indentation 0).
   */
  private static String[] interleavedPods() {
    return new String[] {"[pod/w-0/t] Traceback (most recent call last):", "[pod/w-1/t] step 100 loss 0.5",
        "[pod/w-0/t]   File \"a.py\", line 1, in f", "[pod/w-1/t] Epoch: 3", "[pod/w-0/t]     x()",
        "[pod/w-1/t] 2026-12-05T10:00:00Z step 101", "[pod/w-0/t] ValueError: w-0's, among w-1's lines",
        "[pod/w-0/t] Traceback (most recent call last):", "[pod/w-0/t]   File \"a.py\", line 2, in g",
        "[pod/w-0/t] step 7 of w-0: its own line closes it", "[pod/w-0/t] KeyError: not after frames"};
  }

  /** torchrun --tee's and PyTorch's rank tags, and srun's labels, name the ranks whose lines interleave. */
  private static String[] interleavedRanks() {
    return new String[] {"[default0]:Traceback (most recent call last):", "[default1]:iteration 5",
        "[default0]:  File \"a.py\", line 1, in f", "[default1]:Loss: 0.1", "[default0]:RuntimeError: rank 0's",
        "3: Traceback (most recent call last):", "12: step 9", "3:   File \"b.py\", line 4, in h",
        "12: Throughput: 100", "3: OSError: task 3's"};
  }

  /** journald's senders (host, tag and pid), each line with its own time. */
  private static String[] interleavedSenders() {
    return new String[] {"Dec  5 10:00:00 gpu-1 python3[100]: Traceback (most recent call last):",
        "Dec  5 10:00:00 gpu-1 python3[101]: Epoch: 2", "Dec  5 10:00:01 gpu-1 python3[100]:   File \"a.py\", line 1, in f",
        "Dec  5 10:00:01 gpu-1 python3[101]: step 3", "Dec  5 10:00:02 gpu-1 python3[100]: TypeError: pid 100's"};
  }

  @Test
  void anotherSourcesLinesLeaveATracebackOpen() {
    assertThat(raised(interleavedPods())).containsExactly("ValueError: w-0's, among w-1's lines");
    assertThat(raised(interleavedRanks())).containsExactly("RuntimeError: rank 0's", "OSError: task 3's");
    assertThat(raised(interleavedSenders())).containsExactly("TypeError: pid 100's");
    assertThat(raised(sequences().get(9))).containsExactly("ValueError: w-1's");
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
      int[] text = text(bytes);
      assertThat(units[i].raisedAt(bytes, 0, text[0], bytes.length, text[1])).isFalse();
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
