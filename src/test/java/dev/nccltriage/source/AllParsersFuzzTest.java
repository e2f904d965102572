package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.BwFactSet;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.RuleLoader;
import dev.nccltriage.source.bw.BwRun;
import dev.nccltriage.source.bw.NcclTestsParser;
import dev.nccltriage.source.k8s.ManifestException;
import dev.nccltriage.source.k8s.ManifestSource;
import dev.nccltriage.source.k8s.PodTemplate;
import dev.nccltriage.source.probe.parse.DevInfiniband;
import dev.nccltriage.source.probe.parse.IbvDevinfo;
import dev.nccltriage.source.probe.parse.IpAddr;
import dev.nccltriage.source.probe.parse.KernelVersion;
import dev.nccltriage.source.probe.parse.GpuInformation;
import dev.nccltriage.source.probe.parse.LdconfigCache;
import dev.nccltriage.source.probe.parse.NvidiaDriverVersion;
import dev.nccltriage.source.probe.parse.NvidiaSmiTopo;
import dev.nccltriage.source.probe.parse.PciFunction;
import dev.nccltriage.source.probe.parse.PeerMem;
import dev.nccltriage.source.probe.parse.ProcLimits;
import dev.nccltriage.source.probe.parse.ProcStatus;
import dev.nccltriage.source.probe.parse.RdmaLink;
import dev.nccltriage.source.probe.parse.RdmaSystem;
import dev.nccltriage.source.probe.parse.RoceGids;
import dev.nccltriage.source.probe.parse.SysfsPort;
import dev.nccltriage.source.probe.parse.UlimitL;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Seeded mutations of the real samples fed to all four kinds of parser (issue 11, "Must show"): NCCL log
 * lines (a window of a sample or corpus log), every probe output parser (the copied probe samples and
 * the captures' command outputs, sysfs and proc files), Kubernetes manifests and nccl-tests output.
 * Mutations: flipped bytes, digit runs replaced by numbers that do not fit (2^31, 2^32, 2^63, 10^30, -1,
 * leading zeros, 1e400), lines deleted, duplicated, swapped, cut, control and non-ASCII characters, YAML
 * indentation and tokens. Each kind's contract is asserted exactly:
 *
 * <ul>
 *   <li>log: {@link NcclLogSource} on stdin returns facts; nothing is thrown (no read can fail);
 *   <li>probe parsers: return a non-null result; nothing is thrown, and none swallows a bug of its own
 *       (their defensive catch fails under assertions, see {@code Text.parserBug});
 *   <li>manifests: {@link ManifestSource#parse} returns templates or throws {@link ManifestException}
 *       (exit 2, file:line), and the lint rules evaluate over every template's facts;
 *   <li>nccl-tests: {@link NcclTestsParser} returns a run and {@link BwFactSet} turns it into facts.
 * </ul>
 *
 * A failure names the seed, the iteration, the sample and the mutations; replay one with {@code
 * -Dfuzz.seed=S -Dfuzz.only=ITERATION}. Longer runs: {@code -Dfuzz.mutations=1000000}.
 */
class AllParsersFuzzTest {
  private static final long SEED = Long.getLong("fuzz.seed", 0x11_5EEDL);
  private static final int MUTATIONS = Integer.getInteger("fuzz.mutations", 100_000);
  private static final int ONLY = Integer.getInteger("fuzz.only", -1);
  private static final String[] HUGE = {"2147483648", "4294967296", "9223372036854775808", "18446744073709551616",
      "1000000000000000000000000000000", "-1", "-2147483649", "000000000000000000000000042", "99999999999999999999",
      "1e400", "0x1ffffffffffffffff", "5000000000", "-0", "NaN"};
  private static final String[] ODD = {"\u0000", "\u0007", "\u001b[31m", "\r", "\t", "\u00a0", "\u2028", "\ufeff",
      "\uD83D\uDE00", "\u00ff\u00fe", "\\", "\"", "'", "%s", "{", "}", "[", "]", ":", ",", "#", "/", "-"};
  private static final String[] YAML = {"&a ", "*a", "!!binary ", "<<: *a", "? ", "|", ">-", "---\n", "...\n", "{",
      "[", "- ", ": ", "!!int ", "!!float ", "~", "null", "1e400", "99999999999999999999", ".inf", "0x7fffffffffffffff0"};

  static final Map<String, Function<String, Object>> PROBES = new LinkedHashMap<>();
  static final Map<String, List<String>> PROBE_SAMPLES = new LinkedHashMap<>();
  private static final List<List<String>> LOGS = new ArrayList<>();
  static final List<String> MANIFESTS = new ArrayList<>();
  static final List<String> BW = new ArrayList<>();
  private static Engine engine;

  static {
    PROBES.put("IbvDevinfo", IbvDevinfo::parse);
    PROBES.put("SysfsPort.parseIbstatus", SysfsPort::parseIbstatus);
    PROBES.put("SysfsPort.parseState", t -> String.valueOf(SysfsPort.parseState(t)));
    PROBES.put("SysfsPort.parsePhysState", t -> String.valueOf(SysfsPort.parsePhysState(t)));
    PROBES.put("SysfsPort.parseRate", t -> String.valueOf(SysfsPort.parseRate(t)));
    PROBES.put("SysfsPort.parseLinkLayer", t -> String.valueOf(SysfsPort.parseLinkLayer(t)));
    PROBES.put("SysfsPort.parseLid", t -> String.valueOf(SysfsPort.parseLid(t)));
    PROBES.put("RdmaLink", RdmaLink::parse);
    PROBES.put("RdmaSystem", RdmaSystem::parse);
    PROBES.put("IpAddr", IpAddr::parse);
    PROBES.put("ProcLimits", ProcLimits::parse);
    PROBES.put("ProcStatus", ProcStatus::parse);
    PROBES.put("ProcStatus.parseMask", t -> String.valueOf(ProcStatus.parseMask(t)));
    PROBES.put("UlimitL", UlimitL::parse);
    PROBES.put("NvidiaDriverVersion", NvidiaDriverVersion::parse);
    PROBES.put("KernelVersion", KernelVersion::parse);
    PROBES.put("PeerMem", PeerMem::parse);
    PROBES.put("NvidiaSmiTopo", NvidiaSmiTopo::parse);
    PROBES.put("DevInfiniband", DevInfiniband::parse);
    PROBES.put("LdconfigCache", LdconfigCache::parse);
    PROBES.put("GpuInformation", t -> String.valueOf(GpuInformation.model(t)));
    PROBES.put("RoceGids.parseShowGids", RoceGids::parseShowGids);
    PROBES.put("RoceGids.parseGid", t -> String.valueOf(RoceGids.parseGid(t)));
    PROBES.put("RoceGids.parseType", t -> String.valueOf(RoceGids.parseType(t)));
    PROBES.put("RoceGids.parseNdev", t -> String.valueOf(RoceGids.parseNdev(t)));
    PROBES.put("PciFunction.hex", t -> String.valueOf(PciFunction.hex(t)));
  }

  private static boolean loaded;

  @BeforeAll
  static void load() throws Exception {
    loadOnce();
  }

  /** Loads the samples once per JVM (other tests reuse them). */
  static synchronized void loadOnce() throws Exception {
    if (loaded) {
      return;
    }
    loaded = true;
    Path probes = Path.of("src/test/resources/probes");
    probe("IbvDevinfo", probes.resolve("ibv_devinfo"), "commands/ibv_devinfo");
    probe("SysfsPort.parseIbstatus", probes.resolve("sysfs-ibstatus"));
    probe("RdmaLink", probes.resolve("rdma-link"), "commands/rdma_link_show", "commands/rdma_-j_link_show");
    probe("RdmaSystem", probes.resolve("rdma-system"), "commands/rdma_system_show", "commands/rdma_-j_system_show");
    probe("IpAddr", probes.resolve("ip-addr"), "commands/ip_addr_show", "commands/ip_-j_addr_show");
    probe("ProcLimits", probes.resolve("proc-self-limits"), "/proc/self/limits");
    probe("ProcStatus", probes.resolve("proc-self-status-capeff"), "/proc/self/status");
    probe("UlimitL", probes.resolve("ulimit-l"));
    probe("NvidiaDriverVersion", probes.resolve("proc-driver-nvidia-version"), "/proc/driver/nvidia/version");
    probe("KernelVersion", null, "/proc/sys/kernel/osrelease");
    probe("PeerMem", probes.resolve("nvidia-peermem"), "/proc/modules");
    probe("NvidiaSmiTopo", probes.resolve("nvidia-smi-topo"), "commands/nvidia-smi_topo_-m");
    probe("DevInfiniband", probes.resolve("dev-infiniband"));
    probe("LdconfigCache", probes.resolve("ldconfig-p"), "commands/ldconfig_-p");
    probe("GpuInformation", null, "/information");
    probe("RoceGids.parseShowGids", probes.resolve("show_gids"), "commands/show_gids");
    probe("RoceGids.parseGid", null, "/gids/0", "/gids/3", "/gids/5");
    probe("RoceGids.parseType", null, "/types/1", "/types/2");
    probe("RoceGids.parseNdev", null, "/ndevs/3");
    probe("SysfsPort.parseState", null, "/state");
    probe("SysfsPort.parsePhysState", null, "/phys_state");
    probe("SysfsPort.parseRate", null, "/rate");
    probe("SysfsPort.parseLinkLayer", null, "/link_layer");
    PROBE_SAMPLES.put("SysfsPort.parseLid", List.of("0x0\n", "0xffff\n", "17\n"));
    PROBE_SAMPLES.put("RoceGids.parseGid", concat(PROBE_SAMPLES.get("RoceGids.parseGid"),
        List.of("fe80:0000:0000:0000:a288:c2ff:fe5b:03ec\n", "0000:0000:0000:0000:0000:ffff:0b00:0048\n",
            "0000:0000:0000:0000:0000:0000:0000:0000\n")));
    PROBE_SAMPLES.put("RoceGids.parseType", concat(PROBE_SAMPLES.get("RoceGids.parseType"),
        List.of("IB/RoCE v1\n", "RoCE v2\n")));
    PROBE_SAMPLES.put("RoceGids.parseNdev", concat(PROBE_SAMPLES.get("RoceGids.parseNdev"), List.of("net1\n", "ens3np0\n")));
    PROBE_SAMPLES.put("ProcStatus.parseMask", List.of("000001ffffffffff", "00000000a80425fb", "0000000000004000"));
    // the kernel's PCI identity files (pci-sysfs.c): class, vendor, device
    PROBE_SAMPLES.put("PciFunction.hex", List.of("0x020700\n", "0x15b3\n", "0x1021\n", "0x030200\n", "0xefa1\n"));
    PROBE_SAMPLES.put("KernelVersion", concat(PROBE_SAMPLES.get("KernelVersion"),
        List.of("5.15.0-1040-azure\n", "Linux host 6.8.0-45-generic #45-Ubuntu SMP x86_64 GNU/Linux\n")));
    for (Map.Entry<String, List<String>> e : PROBE_SAMPLES.entrySet()) {
      assertThat(e.getValue()).as("samples of %s", e.getKey()).isNotEmpty();
    }
    assertThat(PROBE_SAMPLES.keySet()).containsExactlyInAnyOrderElementsOf(PROBES.keySet());

    for (Path p : Logs.allLogs()) {
      LOGS.add(Arrays.asList(read(p).split("\n", -1)));
    }
    try (Stream<Path> s = Files.walk(Path.of("samples/k8s"))) {
      for (Path p : s.filter(x -> x.toString().endsWith(".yaml")).sorted().toList()) {
        MANIFESTS.add(read(p));
      }
    }
    try (Stream<Path> s = Files.list(Path.of("samples/nccl-tests"))) {
      for (Path p : s.filter(x -> x.toString().endsWith(".out")).sorted().toList()) {
        BW.add(read(p));
      }
    }
    assertThat(LOGS).hasSizeGreaterThan(50);
    assertThat(MANIFESTS).hasSizeGreaterThanOrEqualTo(10);
    assertThat(BW).hasSizeGreaterThanOrEqualTo(6);
    engine = new Engine(new RuleLoader().loadBuiltInAnd(null));
  }

  /** A parser's samples: the copied probe outputs, and the capture files whose path ends with {@code capture}. */
  private static void probe(String parser, Path dir, String... capture) throws IOException {
    List<String> texts = new ArrayList<>();
    if (dir != null) {
      try (Stream<Path> s = Files.list(dir)) {
        for (Path p : s.filter(x -> x.toString().endsWith(".txt")).sorted().toList()) {
          texts.add(read(p));
        }
      }
    }
    for (String c : capture) {
      if (c == null) {
        continue;
      }
      try (Stream<Path> s = Files.walk(Path.of("samples/captures"))) {
        for (Path p : s.filter(Files::isRegularFile).sorted().toList()) {
          String rel = p.toString().replace('\\', '/');
          boolean hit = c.startsWith("/") ? rel.endsWith(c) : rel.endsWith("/.nccl-triage/" + c + "/stdout");
          if (hit && texts.size() < 40) {
            texts.add(read(p));
          }
        }
      }
    }
    PROBE_SAMPLES.put(parser, texts);
  }

  @Test
  void noParserLetsAnExceptionEscapeOnMutatedSamples() {
    Random seeds = new Random(SEED);
    Map<String, Integer> perKind = new LinkedHashMap<>();
    Map<String, Long> nanos = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < MUTATIONS; i++) {
      long seed = seeds.nextLong();
      if (ONLY >= 0 && i != ONLY) {
        continue;
      }
      Random r = new Random(seed);
      long t0 = System.nanoTime();
      int kind = r.nextInt(20); // log 25%, probes 45%, manifests and nccl-tests 15% each
      List<String> how = new ArrayList<>();
      String what = "?";
      String input = "";
      try {
        if (kind < 5) {
          what = "log";
          List<String> log = LOGS.get(r.nextInt(LOGS.size()));
          int from = r.nextInt(log.size());
          input = mutate(r, String.join("\n", log.subList(from, Math.min(log.size(), from + 1 + r.nextInt(12)))),
              how, false);
          Object facts = Logs.parse(input.getBytes(StandardCharsets.UTF_8));
          assertThat(facts).isNotNull();
        } else if (kind < 14) {
          List<String> names = new ArrayList<>(PROBES.keySet());
          String parser = names.get(r.nextInt(names.size()));
          what = "probe " + parser;
          List<String> samples = PROBE_SAMPLES.get(parser);
          input = mutate(r, samples.get(r.nextInt(samples.size())), how, false);
          assertThat(PROBES.get(parser).apply(input)).isNotNull();
        } else if (kind < 17) {
          what = "manifest";
          input = mutate(r, MANIFESTS.get(r.nextInt(MANIFESTS.size())), how, true);
          try {
            for (PodTemplate t : new ManifestSource(null, Set.of()).parse("fuzz.yaml", input)) {
              engine.lints(t.facts(), l -> l.id().startsWith("K-") || l.id().startsWith("L-env-"));
            }
          } catch (ManifestException expected) {
            assertThat(expected.getMessage()).startsWith("fuzz.yaml:").doesNotContain("\n");
          }
        } else {
          what = "nccl-tests";
          input = mutate(r, BW.get(r.nextInt(BW.size())), how, false);
          BwRun run = new NcclTestsParser().parse(new BufferedReader(new StringReader(input)), "fuzz.out");
          FactSet facts = BwFactSet.from(run, 8, 400.0, null);
          assertThat(facts).isNotNull();
        }
      } catch (Throwable t) {
        if (failures.size() < 15) {
          failures.add("seed " + SEED + " iteration " + i + " (" + what + "): " + t + "\n    at "
              + (t.getStackTrace().length > 0 ? t.getStackTrace()[0] : "?") + "\n    mutations " + how + "\n    input "
              + escape(input));
        }
        continue;
      } finally {
        String k = kind < 5 ? "log" : kind < 14 ? "probe" : kind < 17 ? "manifest" : "nccl-tests";
        perKind.merge(k, 1, Integer::sum);
        nanos.merge(k, System.nanoTime() - t0, Long::sum);
      }
    }
    System.out.println("AllParsersFuzzTest: " + perKind + " mutations, seed " + SEED + "; ms " + nanos.entrySet()
        .stream().map(e -> e.getKey() + "=" + e.getValue() / 1_000_000).toList());
    assertThat(failures).as("exceptions escaping a parser").isEmpty();
    if (ONLY < 0) {
      assertThat(perKind.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThanOrEqualTo(100_000);
    }
  }

  /** One to three mutations of {@code text}; each is described in {@code how}. */
  static String mutate(Random r, String text, List<String> how, boolean yaml) {
    List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
    int n = 1 + r.nextInt(3);
    for (int k = 0; k < n; k++) {
      int i = r.nextInt(lines.size());
      String line = lines.get(i);
      int op = r.nextInt(yaml ? 11 : 9);
      switch (op) {
        case 0, 1 -> { // a digit run replaced by a number that does not fit (the most common crash)
          List<int[]> runs = digitRuns(line);
          if (runs.isEmpty()) {
            lines.set(i, line + " " + HUGE[r.nextInt(HUGE.length)]);
            how.add("append huge @" + i);
          } else {
            int[] run = runs.get(r.nextInt(runs.size()));
            String h = HUGE[r.nextInt(HUGE.length)];
            lines.set(i, line.substring(0, run[0]) + h + line.substring(run[1]));
            how.add("number " + h + " @" + i + ":" + run[0]);
          }
        }
        case 2 -> {
          if (lines.size() > 1) {
            lines.remove(i);
          }
          how.add("delete @" + i);
        }
        case 3 -> {
          lines.add(i, line);
          how.add("duplicate @" + i);
        }
        case 4 -> {
          int j = r.nextInt(lines.size());
          lines.set(i, lines.get(j));
          lines.set(j, line);
          how.add("swap @" + i + "," + j);
        }
        case 5 -> {
          int cut = r.nextInt(line.length() + 1);
          lines.set(i, line.substring(0, cut));
          if (r.nextBoolean()) {
            lines.subList(i + 1, lines.size()).clear();
          }
          how.add("truncate @" + i + ":" + cut);
        }
        case 6 -> {
          char[] c = line.toCharArray();
          for (int f = 0; f < 1 + r.nextInt(3) && c.length > 0; f++) {
            int at = r.nextInt(c.length);
            c[at] = (char) ((c[at] ^ (1 << r.nextInt(8))) & 0xff);
          }
          lines.set(i, new String(c));
          how.add("flip @" + i);
        }
        case 7 -> {
          int at = r.nextInt(line.length() + 1);
          String odd = ODD[r.nextInt(ODD.length)];
          lines.set(i, line.substring(0, at) + odd + line.substring(at));
          how.add("insert " + escape(odd) + " @" + i + ":" + at);
        }
        case 8 -> {
          StringBuilder junk = new StringBuilder();
          for (int b = 0; b < 1 + r.nextInt(12); b++) {
            junk.append((char) r.nextInt(r.nextBoolean() ? 0x80 : 0x3000));
          }
          int at = r.nextInt(line.length() + 1);
          lines.set(i, line.substring(0, at) + junk + line.substring(at));
          how.add("junk " + junk.length() + " @" + i + ":" + at);
        }
        case 9 -> { // indentation: YAML's structure
          int d = r.nextInt(5) - 2;
          String t = d >= 0 ? " ".repeat(d) + line : line.replaceFirst("^ {1," + (-d) + "}", "");
          lines.set(i, r.nextInt(8) == 0 ? "\t" + t : t);
          how.add("indent " + d + " @" + i);
        }
        default -> {
          int at = r.nextInt(line.length() + 1);
          String tok = YAML[r.nextInt(YAML.length)];
          lines.set(i, line.substring(0, at) + tok + line.substring(at));
          how.add("yaml " + escape(tok) + " @" + i + ":" + at);
        }
      }
    }
    return String.join("\n", lines);
  }

  private static String read(Path p) throws IOException {
    return new String(Files.readAllBytes(p), StandardCharsets.UTF_8);
  }

  private static List<int[]> digitRuns(String s) {
    List<int[]> runs = new ArrayList<>();
    for (int i = 0; i < s.length(); i++) {
      if (Character.isDigit(s.charAt(i)) && s.charAt(i) < 128) {
        int j = i;
        while (j < s.length() && s.charAt(j) >= '0' && s.charAt(j) <= '9') {
          j++;
        }
        runs.add(new int[] {i, j});
        i = j;
      }
    }
    return runs;
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a == null ? List.of() : a);
    out.addAll(b);
    return out;
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder("\"");
    String t = s.length() > 1500 ? s.substring(0, 1500) + "..." : s;
    for (char c : t.toCharArray()) {
      if (c == '\n') {
        b.append("\\n");
      } else if (c < 0x20 || c > 0x7e) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c == '"' ? "\\\"" : String.valueOf(c));
      }
    }
    return b.append('"').toString();
  }
}
