package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code nvidia-smi topo -m} / {@code -mp} (probe-formats.md §14): the matrix header
 * (GPU columns, {@code NICn} or old {@code mlx5_N} columns, then {@code CPU Affinity},
 * {@code NUMA Affinity}, {@code GPU NUMA ID} when present), GPU and NIC rows, the {@code Legend}
 * and the {@code NIC Legend} ({@code NIC0: mlx5_0}). Columns are found from the header, never
 * inferred from a driver version. TAB-separated raw output and space-separated pastes both work.
 * Only the first matrix of the text is read. Never throws.
 */
public final class NvidiaSmiTopo {

  /** A GPU row/column: {@code label} {@code GPU3}, its index, and its affinity cells (or null). */
  public record Gpu(
      String label, int index, String cpuAffinity, String numaAffinity, String gpuNumaId) {}

  /**
   * A NIC column: {@code label} as in the matrix ({@code NIC4}, or {@code mlx5_0} in old
   * drivers); {@code ibdev} the RDMA device name from the NIC Legend (or the label itself in the
   * old format), null when unknown.
   */
  public record Nic(String label, String ibdev) {}

  /**
   * The NIC(s) with the nearest relation to a GPU, by PCIe path type (PIX &lt; PXB &lt; PHB
   * &lt; NODE &lt; SYS/SOC). {@code nic} is the first such column, {@code tied} all of them (in
   * column order), {@code relation} their cell.
   */
  public record Closest(
      String gpu, String nic, String nicIbdev, String relation, List<String> tied) {
    public Closest {
      tied = List.copyOf(tied);
    }
  }

  /**
   * {@code columns} are the device column labels of the header in order. {@code cells} maps
   * row label → column label → cell as printed ({@code X}, {@code NV18}, {@code PIX}, ...).
   * {@code legend} maps a legend key ({@code PIX}, {@code NV#}) to its text. {@code closest} has
   * one entry per GPU row that has at least one NIC cell. {@code messages} keeps failure lines
   * ({@code Failed to run topology matrix}).
   */
  public record Result(
      List<String> columns,
      List<Gpu> gpus,
      List<Nic> nics,
      Map<String, Map<String, String>> cells,
      Map<String, String> legend,
      List<Closest> closest,
      List<String> messages) {
    public Result {
      columns = List.copyOf(columns);
      gpus = List.copyOf(gpus);
      nics = List.copyOf(nics);
      Map<String, Map<String, String>> c = new LinkedHashMap<>();
      cells.forEach((k, v) -> c.put(k, Collections.unmodifiableMap(new LinkedHashMap<>(v))));
      cells = Collections.unmodifiableMap(c);
      legend = Collections.unmodifiableMap(new LinkedHashMap<>(legend));
      closest = List.copyOf(closest);
      messages = List.copyOf(messages);
    }

    /**
     * The cell between two labels: the row of {@code a} at column {@code b}, else the row of
     * {@code b} at column {@code a} (pastes often keep only the GPU rows); null when absent.
     */
    public String relation(String a, String b) {
      Map<String, String> r = cells.get(a);
      if (r != null && r.get(b) != null) {
        return r.get(b);
      }
      Map<String, String> s = cells.get(b);
      return s == null ? null : s.get(a);
    }

    /** The closest-NIC entry of a GPU label, or null. */
    public Closest closestNic(String gpu) {
      return closest.stream().filter(c -> c.gpu().equals(gpu)).findFirst().orElse(null);
    }

    /** The NIC with this label, or null. */
    public Nic nic(String label) {
      return nics.stream().filter(n -> n.label().equals(label)).findFirst().orElse(null);
    }
  }

  private static final Pattern GPU = Pattern.compile("^GPU(\\d+)$");
  private static final Pattern NIC = Pattern.compile("^NIC(\\d{1,4})$");
  private static final Pattern DEVICE_NAME = Pattern.compile("^[A-Za-z][A-Za-z0-9_.\\-]*$");
  private static final Pattern RELATION =
      Pattern.compile("^(X|NV\\d+|NV#|PIX|PXB|PHB|NODE|SYS|SOC|PSB|N/A)$");
  private static final Pattern LEGEND = Pattern.compile("^(\\S+)\\s*=\\s*(.*)$");
  private static final Pattern NIC_LEGEND = Pattern.compile("^(NIC\\d{1,4})\\s*:\\s*(\\S+)");
  private static final Pattern AFFINITY_NAMES =
      Pattern.compile("CPU Affinity|NUMA Affinity|GPU NUMA ID|\\S+");
  private static final Set<String> AFFINITY_START = Set.of("CPU", "NUMA", "GPU", "Affinity");
  private static final String[] FAILURES = {
    "Failed to run topology matrix",
    "NVIDIA-SMI has failed",
    "No devices were found",
    "couldn't communicate with the NVIDIA driver",
  };

  private NvidiaSmiTopo() {}

  /** A GPU label's number; -1 (unknown) when it does not fit: the GPU is still a GPU. */
  private static int index(String digits) {
    Integer n = Text.toInt(digits);
    return n == null ? -1 : n;
  }

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    P p = new P();
    try {
      for (String raw : Text.lines(text)) {
        p.line(raw);
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return p.result();
  }

  private static final class P {
    final List<String> columns = new ArrayList<>();
    final List<String> affinityColumns = new ArrayList<>();
    final Map<String, Map<String, String>> cells = new LinkedHashMap<>();
    final Map<String, String[]> affinity = new LinkedHashMap<>();
    final Map<String, String> legend = new LinkedHashMap<>();
    final Map<String, String> nicLegend = new LinkedHashMap<>();
    final List<String> messages = new ArrayList<>();
    boolean headerSeen;
    boolean matrixDone;

    void line(String raw) {
      String line = Text.clean(raw);
      if (line.isEmpty() || Text.isFence(raw)) {
        return;
      }
      for (String f : FAILURES) {
        if (line.contains(f)) {
          messages.add(f);
          return;
        }
      }
      Matcher nl = NIC_LEGEND.matcher(line);
      if (nl.find()) {
        nicLegend.put(nl.group(1), nl.group(2));
        return;
      }
      List<String> t = split(raw);
      if (t.isEmpty()) {
        return;
      }
      if (header(t)) {
        return;
      }
      if (headerSeen && !matrixDone && columns.contains(t.get(0))) {
        row(t);
        return;
      }
      Matcher lg = LEGEND.matcher(line);
      if (lg.matches() && lg.group(1).length() <= 8) {
        legend.put(lg.group(1), lg.group(2).trim());
      }
    }

    /** TAB-separated when the raw line has TABs; otherwise runs of whitespace. */
    static List<String> split(String raw) {
      List<String> out = new ArrayList<>();
      String s = Text.clean(raw);
      if (raw.indexOf('\t') >= 0) {
        for (String c : raw.split("\t")) {
          String v = Text.clean(c);
          if (!v.isEmpty()) {
            // a TAB paste may still hold space-joined cells ("X  NV4"): split them unless
            // they are a known multi-word column name
            if (v.indexOf(' ') >= 0 && !AFFINITY_NAMES.matcher(v).matches()
                && RELATION.matcher(Text.tokens(v)[0]).matches()) {
              Collections.addAll(out, Text.tokens(v));
            } else {
              out.add(v);
            }
          }
        }
        return out;
      }
      Collections.addAll(out, Text.tokens(s));
      return out;
    }

    boolean header(List<String> t) {
      int g = -1;
      for (int i = 0; i < t.size() && i < 4; i++) {
        if (GPU.matcher(t.get(i)).matches()) {
          g = i;
          break;
        }
      }
      if (g < 0) {
        return false;
      }
      if (g + 1 < t.size() && RELATION.matcher(t.get(g + 1)).matches()) {
        return false; // a row: "GPU0  X  NV4 ..."
      }
      if (g > 0 && (columns.contains(t.get(0)) || RELATION.matcher(t.get(g - 1)).matches())) {
        return false;
      }
      List<String> cols = new ArrayList<>();
      int i = g;
      for (; i < t.size(); i++) {
        String c = t.get(i);
        if (AFFINITY_START.contains(c) || c.contains(" ")) {
          break;
        }
        if (!DEVICE_NAME.matcher(c).matches()) {
          return false;
        }
        cols.add(c);
      }
      if (headerSeen) {
        matrixDone = true; // a second matrix (joined paste): keep the first
        return true;
      }
      headerSeen = true;
      columns.addAll(cols);
      StringBuilder rest = new StringBuilder();
      for (; i < t.size(); i++) {
        rest.append(t.get(i)).append(' ');
      }
      Matcher m = AFFINITY_NAMES.matcher(rest);
      while (m.find()) {
        affinityColumns.add(m.group());
      }
      return true;
    }

    void row(List<String> t) {
      String label = t.get(0);
      Map<String, String> r = cells.computeIfAbsent(label, k -> new LinkedHashMap<>());
      int n = Math.min(columns.size(), t.size() - 1);
      for (int i = 0; i < n; i++) {
        r.put(columns.get(i), t.get(i + 1));
      }
      if (GPU.matcher(label).matches()) {
        String[] a = new String[3];
        for (int j = 0; j < affinityColumns.size() && columns.size() + 1 + j < t.size(); j++) {
          String v = t.get(columns.size() + 1 + j);
          switch (affinityColumns.get(j)) {
            case "CPU Affinity" -> a[0] = v;
            case "NUMA Affinity" -> a[1] = v;
            case "GPU NUMA ID" -> a[2] = v;
            default -> { }
          }
        }
        affinity.put(label, a);
      }
    }

    Result result() {
      List<Gpu> gpus = new ArrayList<>();
      List<Nic> nics = new ArrayList<>();
      List<String> gpuLabels = new ArrayList<>();
      for (String c : columns) {
        if (GPU.matcher(c).matches()) {
          gpuLabels.add(c);
        } else {
          Matcher nm = NIC.matcher(c);
          nics.add(new Nic(c, nm.matches() ? nicLegend.get(c) : c));
        }
      }
      for (String r : cells.keySet()) {
        if (GPU.matcher(r).matches() && !gpuLabels.contains(r)) {
          gpuLabels.add(r);
        }
      }
      for (String g : gpuLabels) {
        Matcher gm = GPU.matcher(g);
        String[] a = affinity.getOrDefault(g, new String[3]);
        gpus.add(new Gpu(g, gm.matches() ? index(gm.group(1)) : -1, a[0], a[1], a[2]));
      }
      if (nics.isEmpty()) {
        nicLegend.forEach((k, v) -> nics.add(new Nic(k, v)));
      }
      List<Closest> closest = new ArrayList<>();
      for (String g : gpuLabels) {
        Map<String, String> r = cells.get(g);
        if (r == null) {
          continue;
        }
        int best = Integer.MAX_VALUE;
        String rel = null;
        List<String> tied = new ArrayList<>();
        for (Nic nic : nics) {
          String cell = r.get(nic.label());
          if (cell == null) {
            continue;
          }
          int rank = rank(cell);
          if (rank < best) {
            best = rank;
            rel = cell;
            tied.clear();
            tied.add(nic.label());
          } else if (rank == best) {
            tied.add(nic.label());
          }
        }
        if (!tied.isEmpty()) {
          String first = tied.get(0);
          String ib = nics.stream().filter(n -> n.label().equals(first)).findFirst()
              .map(Nic::ibdev).orElse(null);
          closest.add(new Closest(g, first, ib, rel, tied));
        }
      }
      return new Result(columns, gpus, nics, cells, legend, closest, messages);
    }

    static int rank(String cell) {
      return switch (cell) {
        case "PIX" -> 1;
        case "PXB" -> 2;
        case "PSB" -> 2;
        case "PHB" -> 3;
        case "NODE" -> 4;
        case "SYS", "SOC" -> 5;
        default -> 9;
      };
    }
  }
}
