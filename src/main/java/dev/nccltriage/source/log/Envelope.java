package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * What log aggregators and pastes wrap around a line that is not NCCL's: Ray's
 * " [repeated 3x across cluster]", a markdown table's " |", bold "**" and code "`" (spec §0b), cut
 * before names are read to the end of a line; and what launchers, runtimes and services put before
 * every line.
 */
final class Envelope {
  private static final byte[] REPEATED = ascii(" [repeated ");

  private Envelope() {}

  static boolean mayHaveSuffix(byte last) {
    return last == ']' || last == '*' || last == '`' || last == '|' || last == ' ' || last == '\t' || last == '"';
  }

  /**
   * Whether [s, e) may end in a table's column of digits after a tab ({@link #trimSuffix}): its last
   * byte a digit, and the one before a digit or a tab (most numbers that end NCCL's lines follow a
   * blank: "-> 6", "nRanks 8"). Small enough for C1 to inline.
   */
  static boolean mayEndInColumn(byte[] b, int s, int e) {
    return e - s > 2 && Bytes.isDigit(b[e - 1]) && (b[e - 2] == '\t' || Bytes.isDigit(b[e - 2]));
  }

  /**
   * The end of [s, e) without the wrappers above (and the blanks around them), or a column of
   * digits after a tab.
   */
  static int trimSuffix(byte[] b, int s, int e) {
    int end = e;
    if (b[end - 1] == '"') {
      end = CsvCells.cellEnd(b, s, end);
    }
    if (Bytes.isDigit(b[end - 1])) {
      // a tab and a number at the end: a table's column after the text (the event's time that
      // CloudWatch's `--output text` prints after its message). NCCL prints no tab
      int j = Bytes.skipDigitsBack(b, s, end);
      if (j <= s || b[j - 1] != '\t') {
        return end;
      }
      end = j - 1;
    }
    while (true) {
      int before = end;
      while (end > s && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
        end--;
      }
      if (end > s && (b[end - 1] == '*' || b[end - 1] == '`' || b[end - 1] == '|')) {
        end--;
      } else if (end > s && b[end - 1] == ']') {
        int open = end - 2;
        while (open >= s && b[open] != '[' && end - open < 48) {
          open--;
        }
        if (open > s && startsWith(b, open - 1, end, REPEATED)) {
          end = open - 1;
        }
      }
      if (end == before) {
        return end;
      }
    }
  }

  private static final byte[] KUBECTL_POD = ascii("[pod/");
  private static final byte[] MPI_STDOUT = ascii("<stdout>:");
  private static final byte[] RAY_PID = ascii("pid=");
  private static final byte[] MPI_STDERR = ascii("<stderr>:");

  /**
   * Where a line starts once what kubectl and a container runtime put before every line is cut
   * off: {@code --prefix}'s {@code [pod/NAME/CONTAINER] }, then {@code --timestamps}' date and time
   * (or a runtime's log file, CRI: {@code 2026-05-01T10:00:00.123456789Z stdout F }; or a time in
   * brackets, {@link LineTimes#afterBracketedTime}, and journald's sender after one), or syslog's
   * or journald's time and sender ({@code Dec  3 05:00:00 node python3[1000]: }, {@link
   * SyslogHeader}), then inside the container Ray's {@code (NAME pid=N, ip=A) }, then Open MPI's
   * {@code [1,0]<stdout>:},
   * torchrun's {@code [default0]:} or Slurm's {@code srun --label} ({@code 3: }, padded with spaces
   * to the widest task id), then NCCL's own timestamp (2.26+, on every WARN line by default:
   * {@code NCCL_DEBUG_TIMESTAMP_FORMAT}'s default {@code [%F %T] }, with or without {@code %Nf}'s
   * fraction). No two lines of a thread start alike with a timestamp. {@code s} if there is none of
   * them. A timestamp is a date and a time ({@code YYYY-MM-DD}, {@code T} or a space,
   * {@code HH:MM:SS}, any fraction and zone) and a space or a tab. Reads no further than a newline.
   */
  static int afterWrappers(byte[] b, int s, int e) {
    // most lines: one test, in a method small enough (under 36 bytes) for C1 to inline
    return s < e && b[s] > 0 && WRAPPER_START[b[s]] ? wrapped(b, s, e) : s;
  }

  /**
   * As {@link #afterWrappers}, for a line of fewer than eight bytes: every wrapper ends at a blank,
   * a colon, ']' or ')' (a time, a label, a tag, a Pod, Ray's worker), so a short line without one
   * (a counter, a value, a word) has none, and is not parsed for one.
   */
  static int afterShortWrappers(byte[] b, int s, int e) {
    if (s >= e || b[s] <= 0 || !WRAPPER_START[b[s]]) {
      return s;
    }
    for (int i = s + 1; i < e; i++) {
      byte c = b[i];
      if (c == ' ' || c == ':' || c == ']' || c == ')' || c == '\t') {
        return wrapped(b, s, e);
      }
    }
    return s;
  }

  /**
   * After the known wrappers at s and those that follow them ({@link #afterWrappers} reads one of
   * each kind, in the order a collector adds them: an mpirun tag with a torchrun tag after it is
   * two of one kind).
   */
  static int afterWrapperChain(byte[] b, int s, int e) {
    int i = s;
    for (int n = afterWrappers(b, i, e); n > i; n = afterWrappers(b, i, e)) {
      i = n;
    }
    return i;
  }

  /**
   * The first bytes of a wrapper: '[' (a Pod, a tag, NCCL's timestamp), '(' (Ray), a digit (a
   * timestamp, a task label), a month's first letter (syslog's and journald's time). Not a space:
   * blank and indented lines are many, and a label padded with spaces is constant for a task (its
   * lines are found again with it); a bare message after one is looked for past it
   * ({@link #afterLabel}).
   */
  private static final boolean[] WRAPPER_START = new boolean[128];

  static {
    WRAPPER_START['['] = true;
    WRAPPER_START['('] = true;
    for (char d = '0'; d <= '9'; d++) {
      WRAPPER_START[d] = true;
    }
    for (char m = 'A'; m <= 'Z'; m++) {
      WRAPPER_START[m] = SyslogHeader.mayStart((byte) m);
    }
  }

  private static int wrapped(byte[] b, int s, int e) {
    byte c = b[s];
    int i;
    if (SyslogHeader.mayStart(c)) {
      i = SyslogHeader.afterTime(b, s, e); // a month's name: no other wrapper starts with a letter
    } else {
      int t = c == '[' ? afterPod(b, s, e) : s;
      i = LineTimes.afterTime(b, t, e);
      i = i > t ? SyslogHeader.afterSender(b, i, e) : i;
    }
    if (i < e && b[i] == '(') {
      i = afterRay(b, i, e);
    }
    if (i < e && b[i] == '[') {
      i = afterTag(b, i, e);
    } else if (i < e && Bytes.isDigit(b[i])) {
      i = afterLabel(b, i, e);
    }
    return i < e && b[i] == '[' ? afterNcclTimestamp(b, i, e) : i;
  }

  /**
   * A hash of what names the source of the line at s among the wrappers {@link #afterWrappers} cuts
   * (and srun's padded label after them): kubectl's pod and container, syslog's or journald's
   * sender (host, tag and pid), Ray's worker, a rank's tag or label. Their times are left out: they
   * change from line to line, the source does not. 0 when none names a source (no wrapper, or a
   * time alone). Lines that several processes print into one stream (kubectl {@code -f} over
   * several Pods, a launcher's ranks) are told apart by it.
   */
  static int sourceKey(byte[] b, int s, int e) {
    if (s >= e) {
      return 0;
    }
    int h = 0;
    int i = s;
    byte c = b[s];
    if (c > 0 && WRAPPER_START[c]) {
      if (SyslogHeader.mayStart(c)) {
        int time = SyslogHeader.timeEnd(b, s, e);
        if (time >= 0) {
          i = SyslogHeader.afterSender(b, time + 1, e);
          h = hash(h, b, time + 1, i);
        }
      } else {
        int t = c == '[' ? afterPod(b, s, e) : s;
        h = hash(h, b, s, t);
        i = LineTimes.afterTime(b, t, e);
        int sender = i > t ? SyslogHeader.afterSender(b, i, e) : i;
        h = hash(h, b, i, sender);
        i = sender;
      }
      if (i < e && b[i] == '(') {
        int ray = afterRay(b, i, e);
        h = hash(h, b, i, ray);
        i = ray;
      }
      if (i < e && b[i] == '[') {
        int tag = afterTag(b, i, e);
        h = hash(h, b, i, tag);
        i = tag;
      } else if (i < e && Bytes.isDigit(b[i])) {
        int label = afterLabel(b, i, e);
        h = hash(h, b, i, label);
        i = label;
      }
    }
    if (i < e && b[i] == ' ') {
      h = hash(h, b, i, afterLabel(b, i, e)); // srun's label, padded
    }
    return h;
  }

  /** h followed by b[from, to) (h if that is empty); never 0 after a byte. */
  private static int hash(int h, byte[] b, int from, int to) {
    if (from >= to) {
      return h;
    }
    for (int i = from; i < to; i++) {
      h = 31 * h + b[i];
    }
    return h == 0 ? 1 : h;
  }

  /**
   * After the blanks and the quoting a paste puts before a line (markdown's "> ", a table's "| ",
   * a list's "- " or "* ", code's backquote), and what wraps the line inside them (a timestamp
   * column: CloudWatch's "| time | message |"); s if there is none. NCCL's messages start with none
   * of these bytes.
   */
  static int afterQuoting(byte[] b, int s, int e) {
    int i = skipQuoting(b, s, e);
    if (i == s) {
      return s;
    }
    int w = afterWrappers(b, i, e);
    return w > i ? skipQuoting(b, w, e) : i;
  }

  private static int skipQuoting(byte[] b, int s, int e) {
    int i = s;
    while (i < e && (b[i] == ' ' || b[i] == '\t' || b[i] == '>' || b[i] == '|' || b[i] == '*' || b[i] == '`'
        || b[i] == '-' && i + 1 < e && b[i + 1] == ' ')) {
      i++;
    }
    return i;
  }

  /** After Slurm's {@code srun --label} task id at s: {@code 3: }, {@code  3: }; else s. */
  static int afterLabel(byte[] b, int s, int e) {
    int max = Math.min(e, s + 16);
    int i = s;
    while (i < max && b[i] == ' ') {
      i++;
    }
    int j = Bytes.skipDigits(b, i, max);
    return j > i && j + 1 < max && b[j] == ':' && b[j + 1] == ' ' ? j + 2 : s;
  }

  /** After NCCL's own {@code [2025-06-01 12:34:56] } or {@code [2025-06-01 12:34:56.123456] } at s. */
  private static int afterNcclTimestamp(byte[] b, int s, int e) {
    int end = LineTimes.timeEnd(b, s + 1, e);
    return end >= 0 && end + 1 < e && b[end] == ']' && b[end + 1] == ' ' ? end + 2 : s;
  }

  /** After Ray's {@code (RayWorkerWrapper pid=3051, ip=10.0.0.1) } at s ('('); else s. */
  private static int afterRay(byte[] b, int s, int e) {
    int max = Math.min(e, s + 160);
    int close = s + 1;
    while (close < max && b[close] != ')' && b[close] != '\n') {
      close++;
    }
    if (close + 1 >= max || b[close] != ')' || b[close + 1] != ' ') {
      return s;
    }
    int pid = Bytes.indexOf(b, s + 1, close, RAY_PID);
    return pid >= 0 && (pid == s + 1 || b[pid - 1] == ' ') && Bytes.isDigit(b[pid + RAY_PID.length]) ? close + 2 : s;
  }

  /**
   * After a rank's tag at s ('['): Open MPI's {@code --tag-output} {@code [JOB,RANK]<stdout>:} (or
   * stderr), torchrun's {@code [default0]:} (its role and local rank), PyTorch's {@code [rank0]: };
   * else s.
   */
  private static int afterTag(byte[] b, int s, int e) {
    int max = Math.min(e, s + 64);
    int i = s + 1;
    while (i < max && (b[i] >= 'a' && b[i] <= 'z' || b[i] >= 'A' && b[i] <= 'Z' || b[i] == '_')) {
      i++;
    }
    int j = Bytes.skipDigits(b, i, max);
    if (j == i || j + 1 >= e) {
      return s;
    }
    if (b[j] == ',' && i == s + 1) {
      int k = Bytes.skipDigits(b, j + 1, max);
      if (k == j + 1 || k >= e || b[k] != ']') {
        return s;
      }
      return startsWith(b, k + 1, e, MPI_STDOUT) || startsWith(b, k + 1, e, MPI_STDERR) ? k + 1 + MPI_STDOUT.length : s;
    }
    if (b[j] != ']' || b[j + 1] != ':') {
      return s;
    }
    return j + 2 < e && b[j + 2] == ' ' ? j + 3 : j + 2;
  }

  /** After kubectl's {@code [pod/NAME/CONTAINER] } at s; s if there is none. */
  static int afterPod(byte[] b, int s, int e) {
    if (s >= e || b[s] != '[' || !startsWith(b, s, e, KUBECTL_POD)) {
      return s;
    }
    int j = s + KUBECTL_POD.length;
    int max = Math.min(e, s + 512);
    j = Bytes.indexOfEither(b, j, max, (byte) ']', (byte) '\n');
    j = j < 0 ? max : j;
    return j + 1 < max && b[j] == ']' && b[j + 1] == ' ' ? j + 2 : s;
  }
}
