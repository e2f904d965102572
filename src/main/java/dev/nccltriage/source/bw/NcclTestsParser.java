package dev.nccltriage.source.bw;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
  private static final Pattern NAME = Pattern.compile(
      "(all_reduce|all_gather|reduce_scatter|alltoallv|alltoall|broadcast|reduce|sendrecv|gather|scatter|hypercube)");

  /** Column positions of one table layout. */
  private record Layout(boolean root, int[] time, int[] algbw, int[] busbw, int[] wrong, boolean wrongIsError) {}

  /** Reads the whole output; {@code fileName} (may be null) helps name the collective. */
  public BwRun parse(BufferedReader in, String fileName) throws IOException {
    String collective = null;
    String from = null;
    String version = null;
    Integer nThread = null;
    Integer nGpus = null;
    Double avg = null;
    Long oob = null;
    long ncclLines = 0;
    Layout layout = null;
    List<BwRun.Rank> ranks = new ArrayList<>();
    List<BwRun.Row> rows = new ArrayList<>();
    String raw;
    while ((raw = in.readLine()) != null) {
      String line = PREFIX.matcher(raw.replace("\r", "")).replaceFirst("").strip();
      if (line.isEmpty()) {
        continue;
      }
      if (NCCL.matcher(line).find()) {
        ncclLines++;
        continue;
      }
      if (line.startsWith("#")) {
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
          Integer rank = intOrNull(m.group(1));
          Long pid = longOrNull(m.group(2));
          Integer device = intOrNull(m.group(4));
          if (rank != null && pid != null && device != null) { // else a garbled line, not a rank
            ranks.add(new BwRun.Rank(rank, pid, m.group(3), device));
          }
        } else if ((m = AVG.matcher(line)).find()) {
          avg = number(m.group(1));
        } else if ((m = OOB.matcher(line)).find()) {
          oob = longOrNull(m.group(1));
        } else if (line.contains("busbw") && line.contains("size")) {
          layout = layout(line.substring(1).trim().split("\\s+"));
        }
        continue;
      }
      String[] t = line.split("\\s+");
      if (t.length < 8 || !INT.matcher(t[0]).matches() || !INT.matcher(t[1]).matches()
          || !t[2].matches("[A-Za-z][\\w]*") || !t[3].matches("[A-Za-z][\\w]*")) {
        continue;
      }
      Layout l = layout != null ? layout : guess(t);
      BwRun.Row row = row(t, l);
      if (row != null) {
        rows.add(row);
      }
    }
    if (collective == null && fileName != null) {
      Matcher m = NAME.matcher(fileName.toLowerCase(Locale.ROOT));
      if (m.find()) {
        collective = m.group(1);
        from = "file";
      }
    }
    if (collective == null && !rows.isEmpty()) {
      collective = infer(rows.get(0), ranks.isEmpty() ? null : ranks.size());
      from = collective == null ? null : "columns";
    }
    String generation = layout == null ? (rows.isEmpty() ? null : "unknown")
        : !layout.root() ? "<=2.11" : "2.13+";
    return new BwRun(collective, from, version, nThread, nGpus, List.copyOf(ranks), List.copyOf(rows), avg, oob,
        generation, ncclLines);
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
    Double alg = number(t[l.algbw()[g]]);
    Double bus = number(t[l.busbw()[g]]);
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

  private static Double number(String s) {
    try {
      double d = Double.parseDouble(s);
      return Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
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
