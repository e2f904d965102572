package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.ChannelStats;
import dev.nccltriage.facts.Difference;
import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.FactSet;
import dev.nccltriage.facts.GdrDecision;
import dev.nccltriage.facts.LogFactSet;
import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.facts.NetworkKind;
import dev.nccltriage.facts.NodeFacts;
import dev.nccltriage.rules.Engine;
import dev.nccltriage.rules.RuleLoader;
import dev.nccltriage.rules.Verdict;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded mutations of the sample and corpus logs: deleted, duplicated, swapped, cut and glued lines,
 * random and flipped bytes. Parsing never throws, the facts hold together, and the rules can always
 * be evaluated over them. A failure names the iteration and the mutations, so it can be replayed.
 * Longer runs: {@code mvn test -Dtest=ParserFuzzTest -Dfuzz.iterations=10000 -Dfuzz.seed=7}.
 */
class ParserFuzzTest {
  private static final long SEED = Long.getLong("fuzz.seed", 0x5EED_2026L);
  private static final int ITERATIONS = Integer.getInteger("fuzz.iterations", 300);

  @TempDir static Path dir;
  private static List<byte[]> logs;
  private static Engine engine;

  @BeforeAll
  static void load() throws Exception {
    logs = new ArrayList<>();
    for (Path p : Logs.allLogs()) {
      logs.add(Files.readAllBytes(p));
    }
    engine = new Engine(new RuleLoader().loadBuiltInAnd(null));
  }

  record Mutant(byte[] bytes, String how) {}

  static Mutant mutate(Random r) {
    byte[] src = logs.get(r.nextInt(logs.size()));
    if (r.nextInt(4) == 0) { // sometimes two logs of different jobs pasted together
      byte[] other = logs.get(r.nextInt(logs.size()));
      byte[] both = new byte[src.length + other.length];
      System.arraycopy(src, 0, both, 0, src.length);
      System.arraycopy(other, 0, both, src.length, other.length);
      src = both;
    }
    List<byte[]> lines = split(src);
    StringBuilder how = new StringBuilder();
    int n = 1 + r.nextInt(6);
    for (int k = 0; k < n && !lines.isEmpty(); k++) {
      int i = r.nextInt(lines.size());
      byte[] line = lines.get(i);
      switch (r.nextInt(10)) {
        case 0 -> {
          lines.remove(i);
          how.append("delete ").append(i);
        }
        case 1 -> {
          lines.add(i, line.clone());
          how.append("duplicate ").append(i);
        }
        case 2 -> {
          int j = r.nextInt(lines.size());
          lines.set(i, lines.get(j));
          lines.set(j, line);
          how.append("swap ").append(i).append(',').append(j);
        }
        case 3 -> {
          int cut = line.length == 0 ? 0 : r.nextInt(line.length);
          lines.set(i, java.util.Arrays.copyOf(line, cut));
          how.append("cut ").append(i).append('@').append(cut);
        }
        case 4 -> {
          if (i + 1 < lines.size()) {
            int cut = line.length == 0 ? 0 : r.nextInt(line.length + 1);
            lines.set(i, concat(java.util.Arrays.copyOf(line, cut), lines.remove(i + 1)));
            how.append("glue ").append(i).append('@').append(cut);
          }
        }
        case 5 -> {
          byte[] junk = new byte[1 + r.nextInt(40)];
          r.nextBytes(junk);
          int at = r.nextInt(line.length + 1);
          lines.set(i, concat(concat(java.util.Arrays.copyOf(line, at), junk),
              java.util.Arrays.copyOfRange(line, at, line.length)));
          how.append("insert ").append(junk.length).append(" bytes ").append(i).append('@').append(at);
        }
        case 6 -> {
          byte[] copy = line.clone();
          int flips = 1 + r.nextInt(4);
          for (int f = 0; f < flips && copy.length > 0; f++) {
            copy[r.nextInt(copy.length)] ^= (byte) (1 << r.nextInt(8));
          }
          lines.set(i, copy);
          how.append("flip ").append(i);
        }
        case 7 -> {
          byte[] digits = line.clone();
          for (int d = 0; d < digits.length; d++) {
            if (digits[d] >= '0' && digits[d] <= '9' && r.nextInt(3) == 0) {
              digits[d] = (byte) ('0' + r.nextInt(10));
            }
          }
          lines.set(i, digits);
          how.append("digits ").append(i);
        }
        case 8 -> {
          String[] tokens = {"\r", "\u001b[31m", "NCCL INFO ", "NCCL WARN ", " -> ", "[send] ", "/GDRDMA", " via NET/",
              "host-x:1:2 [3] ", "\u00ff\u00fe", ":", "[", "]", "(", ")", "{", "}", "; OOB ", "NET/IB : Using "};
          byte[] t = tokens[r.nextInt(tokens.length)].getBytes(StandardCharsets.ISO_8859_1);
          int at = r.nextInt(line.length + 1);
          lines.set(i, concat(concat(java.util.Arrays.copyOf(line, at), t),
              java.util.Arrays.copyOfRange(line, at, line.length)));
          how.append("token ").append(i).append('@').append(at);
        }
        default -> {
          lines.add(i, new byte[0]);
          how.append("blank ").append(i);
        }
      }
      how.append("; ");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < lines.size(); i++) {
      out.writeBytes(lines.get(i));
      if (i + 1 < lines.size() || r.nextBoolean()) {
        out.write('\n');
      }
    }
    return new Mutant(out.toByteArray(), how.toString());
  }

  private static List<byte[]> split(byte[] b) {
    List<byte[]> out = new ArrayList<>();
    int s = 0;
    for (int i = 0; i < b.length; i++) {
      if (b[i] == '\n') {
        out.add(java.util.Arrays.copyOfRange(b, s, i));
        s = i + 1;
      }
    }
    if (s < b.length) {
      out.add(java.util.Arrays.copyOfRange(b, s, b.length));
    }
    return out;
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] c = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, c, a.length, b.length);
    return c;
  }

  @Test
  void mutatedLogsParseToConsistentFacts() throws Exception {
    Random r = new Random(SEED);
    int withNccl = 0;
    for (int it = 0; it < ITERATIONS; it++) {
      Mutant m = mutate(r);
      String what = "iteration " + it + " (" + m.how() + ")";
      LogFacts f;
      try {
        f = Logs.parse(m.bytes());
      } catch (RuntimeException e) {
        throw new AssertionError(what + ": parse threw " + e, e);
      }
      assertConsistent(f, what);
      withNccl += f.ncclLines() > 0 ? 1 : 0;
      if (it % 10 == 0) {
        Path file = Files.write(dir.resolve("mutant.log"), m.bytes());
        LogFacts serial = Logs.parseFile(file, 1, Logs.DEFAULT_MAX_LINE, Long.MAX_VALUE);
        LogFacts parallel = Logs.parseFile(file, 3, Logs.DEFAULT_MAX_LINE, 1);
        String text = new String(m.bytes(), StandardCharsets.ISO_8859_1);
        // see ParallelChunksTest: per-line HCA and interface lists are known to break across chunks
        Set<String> skip = Set.of();
        ParallelChunksTest.assertSameFacts(parallel, serial, what + ", 3 threads", skip);
      }
    }
    assertThat(withNccl).as("mutants that still hold NCCL lines").isGreaterThan(ITERATIONS / 2);
  }

  static void assertConsistent(LogFacts f, String what) {
    ChannelStats c = f.netChannels();
    assertThat(c.total()).as(what + ": total = send + receive").isEqualTo(c.send() + c.receive());
    assertThat(c.gdrdma()).as(what + ": gdrdma = sendGdrdma + receiveGdrdma")
        .isEqualTo(c.sendGdrdma() + c.receiveGdrdma());
    assertThat(c.gdrdma()).as(what + ": gdrdma <= total").isBetween(0L, c.total());
    assertThat(c.sendGdrdma()).as(what + ": sendGdrdma <= send").isBetween(0L, c.send());
    assertThat(c.receiveGdrdma()).as(what + ": receiveGdrdma <= receive").isBetween(0L, c.receive());
    if (c.total() > 0 || f.signals().gdrLogged() == null) {
      assertThat(f.gdr()).as(what + ": gdr").isEqualTo(c.gdr());
    } else {
      assertThat(f.gdr()).as(what + ": gdr from NCCL's decisions").isEqualTo(f.signals().gdrLogged());
    }
    ChannelStats sum = f.nodeDetails().stream().map(NodeFacts::netChannels).reduce(ChannelStats.NONE, ChannelStats::plus);
    assertThat(sum).as(what + ": per-node channels add up").isEqualTo(c);
    assertThat(f.localChannels()).as(what).isNotNegative();

    assertThat(f.transport() == null).as(what + ": transport null iff no node has one")
        .isEqualTo(f.transportNodes().isEmpty());
    java.util.Set<Boolean> kinds = new java.util.HashSet<>();
    f.transportNodes().keySet().forEach(t -> kinds.add(NetworkKind.rdma(t)));
    if (kinds.contains(Boolean.TRUE) && kinds.contains(Boolean.FALSE)) {
      assertThat(f.transport()).as(what + ": RDMA and non-RDMA nodes").isEqualTo("mixed");
    }
    if ("mixed".equals(f.transport())) {
      assertThat(f.rdma()).as(what + ": mixed is not all RDMA").isFalse();
    }
    // (a process whose network is of unknown kind leaves rdma unknown whatever the name shown)
    if (f.transportNodes().size() == 1 && !f.transport().equals("mixed") && f.signals().ofiProviders().isEmpty()
        && f.rdma() != null) {
      assertThat(f.rdma()).as(what + ": rdma of " + f.transport()).isEqualTo(NetworkKind.rdma(f.transport()));
    }

    assertThat(f.hcaPorts() == null).as(what + ": hcaPorts null iff no HCA").isEqualTo(f.hcas().isEmpty());
    assertThat(f.hcaPortsMin() == null).as(what).isEqualTo(f.hcas().isEmpty());
    assertThat(f.linkLayers().isEmpty()).as(what + ": link layers iff HCAs").isEqualTo(f.hcas().isEmpty());
    if (f.hcaPorts() != null) {
      assertThat(f.hcaPortsMin()).as(what + ": hcaPortsMin <= hcaPorts").isBetween(1, f.hcaPorts());
      long ports = f.hcas().stream().mapToLong(h -> h.ports().size()).sum();
      assertThat((long) f.hcaPorts()).as(what + ": distinct ports <= listed ports").isBetween(1L, ports);
      assertThat(f.hcas()).as(what).allSatisfy(h -> assertThat(h.ports()).allSatisfy(p -> {
        assertThat(p.name()).isNotBlank();
        assertThat(p.linkLayer()).isIn("IB", "RoCE", "UNSPECIFIED");
      }));
    }
    if (f.oob() != null) {
      assertThat(f.oobInterfaces()).as(what).contains(f.oob().name());
    }

    if (f.singleNode() == null) {
      assertThat(f.nodes()).as(what + ": a node count without single/multi").isNull();
      assertThat(f.nodesFrom()).as(what).isNull();
    } else {
      assertThat(f.nodesFrom()).as(what).isIn("comm", "hostnames", "ranks", "loopback", "errors", "channels");
    }
    if (f.nodes() != null) {
      assertThat(f.nodes()).as(what).isPositive();
      assertThat(f.singleNode()).as(what).isEqualTo(f.nodes() == 1);
    }
    if (f.nodeDetails().stream().filter(n -> n.host() != null).count() >= 2) {
      assertThat(f.singleNode()).as(what + ": several hosts are several nodes").isFalse();
    }
    if (f.ranks() != null) {
      assertThat(f.ranks()).as(what).isPositive();
    }
    if (f.localGpus() != null) {
      assertThat(f.localGpus()).as(what).isPositive();
    }
    List<String> hosts = f.nodeDetails().stream().map(NodeFacts::host).filter(Objects::nonNull).toList();
    assertThat(hosts).as(what + ": hosts listed once").doesNotHaveDuplicates();
    assertThat(f.nodeDetails().stream().filter(n -> n.host() != null).mapToInt(NodeFacts::processes).sum())
        .as(what + ": processes").isEqualTo(f.processes());
    for (Difference d : f.differs()) {
      assertThat(hosts).as(what + ": differs names a host").contains(d.who());
      assertThat(d.aspect()).as(what).isIn("transport", "hcas", "gdr", "oob", "bootstrap", "version");
    }

    long lines = f.inputs().stream().mapToLong(i -> i.lines()).sum();
    f.inputs().forEach(i -> {
      assertThat(i.unplacedLines()).as(what + ": unplaced <= lines").isBetween(0L, i.lines());
      assertThat(i.truncatedLines()).as(what + ": truncated <= lines").isBetween(0L, i.lines());
    });
    if (f.ncclLines() == 0) {
      assertThat(f.transport()).as(what + ": no NCCL line, no transport").isNull();
      assertThat(c.total()).as(what).isZero();
      assertThat(f.errors()).as(what).isEmpty();
    }
    List<Evidence> all = new ArrayList<>();
    f.evidence().values().forEach(all::addAll);
    f.errors().forEach(e -> all.addAll(e.evidence()));
    f.gdrDecisions().forEach(g -> all.addAll(g.evidence()));
    f.differs().forEach(d -> all.addAll(d.evidence()));
    assertThat(all).as(what + ": evidence points at real lines").allSatisfy(e -> {
      assertThat(e.line()).isBetween(1L, lines);
      assertThat(e.text()).isNotNull();
    });
    for (ErrorSignature e : f.errors()) {
      assertThat(e.count()).as(what).isGreaterThanOrEqualTo(e.evidence().size()).isPositive();
      assertThat(e.evidence()).as(what).hasSizeLessThanOrEqualTo(3);
    }
    for (GdrDecision g : f.gdrDecisions()) {
      assertThat(g.count()).as(what).isGreaterThanOrEqualTo(g.evidence().size()).isPositive();
    }
    f.envConflicts().forEach((k, v) -> {
      assertThat(f.env()).as(what).containsKey(k);
      assertThat(v.get(0)).as(what + ": env keeps the first value").isEqualTo(f.env().get(k));
    });
    assertThat(f.env().keySet()).as(what).allMatch(k -> k.startsWith("NCCL_"));

    // the rules can always be evaluated over what the parser found
    for (Integer expect : new Integer[] {null, 8}) {
      FactSet facts = LogFactSet.from(f, expect);
      Verdict v = engine.evaluate(facts, f.differs());
      assertThat(v.status()).as(what + ": verdict").isIn("healthy", "problem", "inconclusive");
      assertThat(v.layer()).as(what + ": layer").isNotBlank();
    }
  }

  @Test
  void unmutatedLogsAreConsistentToo() throws Exception {
    for (Path p : Logs.allLogs()) {
      assertConsistent(Logs.parseFile(p, 1, Logs.DEFAULT_MAX_LINE, Long.MAX_VALUE), p.toString());
    }
  }

  @Test
  void aHandfulEndToEnd() throws Exception {
    Random r = new Random(SEED + 1);
    ObjectMapper json = new ObjectMapper();
    for (int it = 0; it < 12; it++) {
      Mutant m = mutate(r);
      String what = "end-to-end iteration " + it + " (" + m.how() + ")";
      Logs.CliResult res = Logs.cli(dir, m.bytes(), "log", "-o", "json", "-");
      Logs.assertCleanExit(res, what);
      JsonNode report = json.readTree(res.out());
      assertThat(report.path("verdict").path("status").asText()).as(what)
          .isIn("healthy", "problem", "inconclusive");
      int expected = switch (report.path("verdict").path("status").asText()) {
        case "healthy" -> 0;
        case "problem" -> 1;
        default -> 3;
      };
      assertThat(res.code()).as(what + ": exit code matches the status").isEqualTo(expected);
      Path file = Files.write(dir.resolve("e2e-" + it + ".log"), m.bytes());
      Logs.assertCleanExit(Logs.cli(dir, new byte[0], "log", file.getFileName().toString()), what + " as text");
      Logs.assertCleanExit(Logs.cli(dir, new byte[0], "log", "-o", "markdown", file.getFileName().toString()),
          what + " as markdown");
    }
  }

  @Test
  void mutatorIsDeterministic() {
    Mutant a = mutate(new Random(SEED));
    Mutant b = mutate(new Random(SEED));
    assertThat(a.bytes()).isEqualTo(b.bytes());
    assertThat(a.how()).isEqualTo(b.how()).isNotEmpty();
  }
}
