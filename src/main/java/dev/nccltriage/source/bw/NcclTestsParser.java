package dev.nccltriage.source.bw;

import dev.nccltriage.source.probe.parse.Text;
import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads nccl-tests output of any collective and format generation (spec §12): ≤2.11 (no root
 * column, {@code error} instead of {@code #wrong}), 2.13–2.17.2 and 2.17.3+. Columns are located by
 * the table header's names when it is present, so {@code -C} ({@code cputime}) and {@code -I}
 * (per-iteration columns after each group) are read too; a {@code -S} timestamp column is skipped
 * by name. NCCL's own lines, interleaved, are counted and otherwise ignored.
 */
public final class NcclTestsParser {
  private static final Pattern PREFIX = Pattern.compile("^\\[\\d+,\\d+\\]<\\w+>:\\s?");
  private static final Pattern STARTING = Pattern.compile("^#\\s*Collective test starting:\\s*(\\S+)");
  private static final Pattern VERSION = Pattern.compile("^#\\s*nccl-tests version\\s+(\\S+)");
  private static final Pattern NTHREAD = Pattern.compile("^#\\s*nThread\\s+(\\d+)\\s+nGpus\\s+(\\d+)");
  private static final Pattern RANK = Pattern.compile(
      "^#\\s*Rank\\s+(\\d+)\\s+(?:Group\\s+\\d+\\s+)?Pid\\s+(\\d+)\\s+on\\s+(\\S+)\\s+device\\s+(\\d+)");
  private static final Pattern AVG = Pattern.compile("^#\\s*Avg bus bandwidth\\s*:\\s*([-+0-9.eE]+|nan|inf)");
  private static final Pattern OOB = Pattern.compile("^#\\s*Out of bounds values\\s*:\\s*(\\d+)");
  private static final Pattern NCCL = Pattern.compile("\\bNCCL (INFO|WARN|TRACE)\\b");
  private static final Pattern INT = Pattern.compile("-?\\d+");
  private static final Pattern WORD = Pattern.compile("[A-Za-z]\\w*");
  private static final Pattern NAME = Pattern.compile(
      "(all_reduce|all_gather|reduce_scatter|alltoallv|alltoall|broadcast|reduce|sendrecv|gather|scatter|hypercube)");

  /** Column positions of one table layout. */
  private record Layout(boolean root, int[] time, int[] algbw, int[] busbw, int[] wrong, boolean wrongIsError) {}

  /** Rows kept for the report; the totals ({@link BwRun.Rows}) cover every row. */
  public static final int MAX_ROWS = 4096;
  /** Distinct hosts kept; past this the host count is unknown. */
  public static final int MAX_HOSTS = 65536;
  /** Longer than a host name can be (DNS: 253; Linux's HOST_NAME_MAX: 64). */
  static final int MAX_HOST_NAME = 255;

  private String collective;
  private String from;
  private String version;
  private Integer nThread;
  private Integer nGpus;
  private Double avg;
  private Long oob;
  private long ncclLines;
  private Layout layout;
  private long ranks;
  private final Set<String> hosts = new LinkedHashSet<>();
  private boolean allHosts = true;
  private final List<BwRun.Row> rows = new ArrayList<>();
  private long rowCount;
  private long large;
  private double largeSum;
  private double peak;
  private long maxBytes;
  private boolean wrong;

  /** Reads the whole output; {@code fileName} (may be null) helps name the collective. */
  public BwRun parse(BufferedReader in, String fileName) throws IOException {
    String raw;
    while ((raw = in.readLine()) != null) {
      accept(raw);
    }
    return finish(fileName);
  }

  /** NCCL's own lines seen so far. */
  public long ncclLines() {
    return ncclLines;
  }

  /** One line of the output, in order; memory stays bounded however many there are. */
  public void accept(String raw) {
    String line = PREFIX.matcher(raw.replace("\r", "")).replaceFirst("").strip();
    if (line.isEmpty()) {
      return;
    }
    if (NCCL.matcher(line).find()) {
      ncclLines++;
      return;
    }
    if (line.startsWith("#")) {
      comment(line);
      return;
    }
    String[] t = Text.splitOnBlanks(line);
    if (t.length < 8 || !INT.matcher(t[0]).matches() || !INT.matcher(t[1]).matches()
        || !WORD.matcher(t[2]).matches() || !WORD.matcher(t[3]).matches()) {
      return;
    }
    BwRun.Row row = row(t, layout != null ? layout : guess(t));
    if (row != null) {
      add(row);
    }
  }

  private void comment(String line) {
    Matcher m;
    if ((m = STARTING.matcher(line)).find()) {
      collective = m.group(1).replaceAll("_perf(_mpi)?$", "");
      from = "preamble";
    } else if ((m = VERSION.matcher(line)).find()) {
      version = m.group(1);
    } else if ((m = NTHREAD.matcher(line)).find()) {
      nThread = intOrNull(m.group(1));
      nGpus = intOrNull(m.group(2));
    } else if ((m = RANK.matcher(line)).find()) {
      // a garbled line (a number that does not fit, a "host" longer than any host's name) is not a rank
      if (intOrNull(m.group(1)) != null && longOrNull(m.group(2)) != null && intOrNull(m.group(4)) != null
          && m.group(3).length() <= MAX_HOST_NAME) {
        ranks++;
        if (hosts.size() < MAX_HOSTS || hosts.contains(m.group(3))) {
          hosts.add(m.group(3));
        } else {
          allHosts = false;
        }
      }
    } else if ((m = AVG.matcher(line)).find()) {
      avg = number(m.group(1));
    } else if ((m = OOB.matcher(line)).find()) {
      oob = longOrNull(m.group(1));
    } else if (line.contains("busbw") && line.contains("size")) {
      layout = layout(Text.splitOnBlanks(line.substring(1).trim()));
    }
  }

  private void add(BwRun.Row row) {
    if (rows.size() < MAX_ROWS) {
      rows.add(row);
    }
    rowCount++;
    if (row.bytes() >= BwRun.LARGE) {
      large++;
      largeSum += row.busbw();
    }
    peak = rowCount == 1 ? row.busbw() : Math.max(peak, row.busbw());
    maxBytes = Math.max(maxBytes, row.bytes());
    wrong |= row.wrong() != null && row.wrong() > 0;
  }

  /** The run read so far; {@code fileName} (may be null) helps name the collective. */
  public BwRun finish(String fileName) {
    String collective = this.collective;
    String from = this.from;
    if (collective == null && fileName != null) {
      Matcher m = NAME.matcher(fileName.toLowerCase(Locale.ROOT));
      if (m.find()) {
        collective = m.group(1);
        from = "file";
      }
    }
    if (collective == null && !rows.isEmpty()) {
      collective = infer(rows.get(0), ranks == 0 ? null : (int) Math.min(ranks, Integer.MAX_VALUE));
      from = collective == null ? null : "columns";
    }
    String generation = layout == null ? (rows.isEmpty() ? null : "unknown")
        : !layout.root() ? "<=2.11" : "2.13+";
    return new BwRun(collective, from, version, nThread, nGpus, ranks, List.copyOf(hosts), allHosts,
        List.copyOf(rows), new BwRun.Rows(rowCount, large, largeSum, peak, maxBytes, wrong), avg, oob, generation,
        ncclLines);
  }

  private static Layout layout(String[] names) {
    List<Integer> time = new ArrayList<>();
    List<Integer> algbw = new ArrayList<>();
    List<Integer> busbw = new ArrayList<>();
    List<Integer> wrong = new ArrayList<>();
    boolean root = false;
    boolean error = false;
    for (int i = 0; i < names.length; i++) {
      switch (names[i]) {
        case "root" -> root = true;
        case "time", "cputime" -> time.add(i);
        case "algbw" -> algbw.add(i);
        case "busbw" -> busbw.add(i);
        case "#wrong" -> wrong.add(i);
        case "error" -> {
          wrong.add(i);
          error = true;
        }
        default -> { }
      }
    }
    if (busbw.isEmpty() || algbw.size() != busbw.size() || time.size() != busbw.size()) {
      return null;
    }
    return new Layout(root, ints(time), ints(algbw), ints(busbw), wrong.size() == busbw.size() ? ints(wrong) : null, error);
  }

  /** No header: 12 columns is ≤2.11, otherwise the 2.13+ layout. */
  private static Layout guess(String[] t) {
    boolean root = t.length != 12;
    int b = root ? 5 : 4;
    return new Layout(root, new int[] {b, b + 4}, new int[] {b + 1, b + 5}, new int[] {b + 2, b + 6},
        new int[] {b + 3, b + 7}, !root);
  }

  /** A count the preamble prints; null when it does not fit (an unusual value, not an error). */
  private static Integer intOrNull(String digits) {
    Long v = longOrNull(digits);
    return v == null || v > Integer.MAX_VALUE ? null : v.intValue();
  }

  private static Long longOrNull(String digits) {
    try {
      return Long.valueOf(digits);
    } catch (NumberFormatException tooLong) {
      return null;
    }
  }

  private static BwRun.Row row(String[] t, Layout l) {
    if (l == null) {
      return null;
    }
    try {
      BwRun.Group out = group(t, l, 0);
      BwRun.Group in = l.busbw().length > 1 ? group(t, l, 1) : null;
      if (out == null) {
        return null;
      }
      Integer root = l.root() && t.length > 4 && INT.matcher(t[4]).matches() ? Integer.valueOf(t[4]) : null;
      return new BwRun.Row(Long.parseLong(t[0]), Long.parseLong(t[1]), t[2], t[3], root, out, in);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static BwRun.Group group(String[] t, Layout l, int g) {
    int last = Math.max(l.busbw()[g], l.wrong() == null ? 0 : l.wrong()[g]);
    if (last >= t.length) {
      return null;
    }
    Double time = number(t[l.time()[g]]);
    Double alg = bandwidth(t[l.algbw()[g]]);
    Double bus = bandwidth(t[l.busbw()[g]]);
    if (time == null || alg == null || bus == null) {
      return null;
    }
    Long wrong = null;
    if (l.wrong() != null && !l.wrongIsError()) {
      String w = t[l.wrong()[g]];
      Double d = w.equals("N/A") ? null : number(w);
      wrong = d == null ? null : (long) d.doubleValue();
    }
    return new BwRun.Group(time, alg, bus, wrong);
  }

  /** A time or a count: finite and not negative (nccl-tests prints neither below 0), else unknown. */
  private static Double number(String s) {
    try {
      double d = Double.parseDouble(s);
      return Double.isFinite(d) && d >= 0 ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * The highest bandwidth taken, in GB/s: a hundred times any GPU's links (NVLink 5: 1.8 TB/s a GPU),
   * so a value above it is a damaged row, not a measurement.
   */
  static final double MAX_GBS = 200_000;

  /** An algbw or busbw column: {@link #number}, at most {@link #MAX_GBS}. */
  private static Double bandwidth(String s) {
    Double d = number(s);
    return d == null || d > MAX_GBS ? null : d;
  }

  private static int[] ints(List<Integer> l) {
    return l.stream().mapToInt(Integer::intValue).toArray();
  }

  /** Names the collective from a row's redop, root and size/count ratio (spec §12.3, §12.5). */
  static String infer(BwRun.Row r, Integer nranks) {
    int ts = typeSize(r.type());
    boolean whole = ts > 0 && r.count() > 0 && r.bytes() == r.count() * ts;
    boolean reduces = !r.redop().equals("none");
    boolean rooted = r.root() != null && r.root() >= 0;
    if (ts == 0) {
      return null;
    }
    if (reduces) {
      return rooted ? "reduce" : whole ? "all_reduce" : "reduce_scatter";
    }
    return rooted ? "broadcast" : whole ? "sendrecv" : "all_gather";
  }

  static int typeSize(String type) {
    return switch (type) {
      case "int8", "uint8", "char", "f8e4m3", "f8e5m2" -> 1;
      case "half", "bfloat16", "fp16", "bf16" -> 2;
      case "int32", "uint32", "float", "int", "fp32" -> 4;
      case "int64", "uint64", "double", "fp64" -> 8;
      default -> 0;
    };
  }
}
