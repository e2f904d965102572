package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nccltriage.source.bw.NcclTestsParser;
import dev.nccltriage.source.k8s.ManifestException;
import dev.nccltriage.source.k8s.ManifestSource;
import java.io.BufferedReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every line kind the samples hold, stretched to the line limit the way a hostile or broken input
 * stretches it: its list part repeated (thousands of HCAs, interfaces, ranks, dotted numbers) and the
 * whole line glued to itself (records without newlines between them). A parser whose expression
 * repeats a group recursed once per element and overflowed the stack; one that re-scanned the line
 * per element took seconds. Each input runs on a thread with a small stack, so that recursion per
 * element fails here at lengths a real stack would only fail at a few times longer, and the test as
 * a whole has a budget far above its normal run time (a hang guard, not a benchmark).
 */
class StretchedInputTest {
  /** Under the log reader's 64 KiB line limit: the longest line a parser is ever handed whole. */
  private static final int LOG_LINE = 60_000;
  private static final int PROBE_LINE = 30_000;
  private static final long STACK = 384 * 1024;
  private static final long BUDGET_MS = 5_000;
  /** Evidence is cut at 300 characters; with its indent and line number, a report line stays under this. */
  private static final int REPORT_LINE = 400;
  /** A Markdown table row holds a question, its answer and up to four evidence lines (1278 on the samples). */
  private static final int MARKDOWN_LINE = 2000;
  private static final ObjectMapper JSON = new ObjectMapper();

  @BeforeAll
  static void load() throws Exception {
    AllParsersFuzzTest.loadOnce();
  }

  /** The line with its last {@code k} space-separated tokens repeated until it is {@code target} long. */
  static String tail(String line, int k, int target) {
    String[] t = line.trim().split(" +");
    if (t.length < k || line.length() >= target) {
      return null;
    }
    StringBuilder unit = new StringBuilder();
    for (int i = t.length - k; i < t.length; i++) {
      unit.append(' ').append(t[i]);
    }
    return repeat(line, unit.toString(), target);
  }

  /** The line's last token repeated with nothing between (a list without separators, "1.1.1..."). */
  static String bare(String line, int target) {
    String[] t = line.trim().split(" +");
    return t.length == 0 || t[t.length - 1].isEmpty() ? null : repeat(line, t[t.length - 1], target);
  }

  /**
   * The line with one token's last segment repeated inside it ("535.104.05" -> "535.104.05.05.05...",
   * "0000:1b:00.0" -> "0000:1b:00.0.0.0..."): dotted versions, addresses and bus ids that go on;
   * the first such token, or the last one with {@code last}.
   */
  static String inner(String line, boolean last, int target) {
    String[] t = line.split(" ", -1);
    for (int n = 0; n < t.length; n++) {
      int i = last ? t.length - 1 - n : n;
      int j = lastSeparator(t[i]);
      if (j > 0 && j < t[i].length() - 1 && line.length() < target) {
        t[i] = repeat(t[i], t[i].substring(j), target - line.length() + t[i].length());
        return String.join(" ", t);
      }
    }
    return null;
  }

  private static int lastSeparator(String token) {
    for (int j = token.length() - 1; j > 0; j--) {
      if (".:,/-=".indexOf(token.charAt(j)) >= 0) {
        return j;
      }
    }
    return -1;
  }

  /** The line glued to itself: records of one thread without the newlines between them. */
  static String glued(String line, int target) {
    return line.isBlank() ? null : repeat(line, " " + line, target);
  }

  private static String repeat(String start, String unit, int target) {
    StringBuilder b = new StringBuilder(target + unit.length()).append(start);
    while (b.length() + unit.length() <= target) {
      b.append(unit);
    }
    return b.toString();
  }

  /** Every stretched form of a line. */
  static List<String> stretched(String line, int target) {
    List<String> out = new ArrayList<>();
    for (String s : new String[] {tail(line, 1, target), tail(line, 2, target), tail(line, 3, target),
        bare(line, target), glued(line, target), inner(line, false, target), inner(line, true, target)}) {
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /** A line's shape: digits and hex masked, at most the first 48 characters, so each kind is stretched once. */
  private static String shape(String line) {
    String s = line.replaceAll("0x[0-9a-fA-F]+", "H").replaceAll("[0-9]+", "9");
    int n = s.indexOf("NCCL ");
    s = n >= 0 ? s.substring(n) : s.replaceFirst("^[^ ]*", "P");
    return s.length() > 48 ? s.substring(0, 48) : s;
  }

  /**
   * Runs {@code body} on a thread with a small stack; its throwable, or null. A body that takes
   * longer than {@link #BUDGET_MS} fails too: each input parses in milliseconds, and one that scans
   * its line again per element takes seconds (the budget is a hang guard, far above any normal run).
   */
  private static Throwable onSmallStack(Runnable body) throws InterruptedException {
    AtomicReference<Throwable> thrown = new AtomicReference<>();
    long t0 = System.nanoTime();
    Thread t = new Thread(null, () -> {
      try {
        body.run();
      } catch (Throwable e) {
        thrown.set(e);
      }
    }, "small-stack", STACK);
    t.start();
    t.join();
    long ms = (System.nanoTime() - t0) / 1_000_000;
    if (thrown.get() == null && ms > BUDGET_MS) {
      return new AssertionError("took " + ms + " ms (budget " + BUDGET_MS + " ms)");
    }
    return thrown.get();
  }

  @Test
  void everyLogLineKindStretchedToTheLineLimitGivesAReport() throws Exception {
    Set<String> seen = new LinkedHashSet<>();
    List<String> failures = new ArrayList<>();
    for (Path p : Logs.allLogs()) {
      List<String> lines = new ArrayList<>();
      for (String line : new String(Files.readAllBytes(p), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank() && seen.add(shape(line))) {
          lines.addAll(stretched(line.stripTrailing(), LOG_LINE));
        }
      }
      // one run per log; a failure is then narrowed down to the line that causes it
      Throwable all = lines.isEmpty() ? null : onSmallStack(() -> checkLog(String.join("\n", lines)));
      if (all == null) {
        continue;
      }
      int before = failures.size();
      for (String line : lines) {
        Throwable one = onSmallStack(() -> checkLog(line));
        if (one != null && failures.size() < 8) {
          failures.add(p.getFileName() + ": " + one + "\n    on " + line.substring(0, Math.min(160, line.length()))
              + "... (" + line.length() + " chars)");
        }
      }
      if (failures.size() == before) {
        failures.add(p.getFileName() + ", all its stretched lines together: " + all);
      }
    }
    assertThat(seen).as("line kinds in the samples").hasSizeGreaterThan(300);
    assertThat(failures).isEmpty();
  }

  /**
   * The log command on the text: a report with a finished exit code, nothing thrown, no trace; the
   * text report shows input values clipped (no line of it longer than {@link #REPORT_LINE}).
   */
  private static void checkLog(String text) {
    byte[] in = text.getBytes(StandardCharsets.UTF_8);
    Logs.CliResult t = Logs.cli(Path.of("."), in, "log", "--threads", "1", "-");
    Logs.assertCleanExit(t, "stretched lines, text report");
    for (String line : t.out().split("\n")) {
      assertThat(line.length()).as("a text report line: %s", line.substring(0, Math.min(200, line.length())))
          .isLessThanOrEqualTo(REPORT_LINE);
    }
    Logs.CliResult md = Logs.cli(Path.of("."), in, "log", "--threads", "1", "-o", "markdown", "-");
    Logs.assertCleanExit(md, "stretched lines, Markdown report");
    for (String line : md.out().split("\n")) {
      assertThat(line.length()).as("a Markdown report line: %s", line.substring(0, Math.min(200, line.length())))
          .isLessThanOrEqualTo(MARKDOWN_LINE);
    }
    Logs.CliResult r = Logs.cli(Path.of("."), in, "log", "--threads", "1", "-o", "json", "-");
    Logs.assertCleanExit(r, "stretched lines");
    com.fasterxml.jackson.databind.JsonNode doc;
    try {
      // Jackson's own limits: an object key over 50000 characters is refused, as any consumer would
      doc = JSON.readTree(r.out());
    } catch (java.io.IOException e) {
      throw new AssertionError("not JSON (" + e.getMessage().lines().findFirst().orElse("") + ")", e);
    }
    assertThat(doc.path("verdict").isObject()).as("a verdict").isTrue();
    assertShortKeys(doc, "");
  }

  /**
   * No key of the report comes whole from a hostile line: each is a name NCCL prints, short; nor
   * does a host name ("host", "who"), which no host has past 255 characters.
   */
  private static void assertShortKeys(com.fasterxml.jackson.databind.JsonNode n, String path) {
    n.fields().forEachRemaining(f -> {
      assertThat(f.getKey().length()).as("a key under %s: %s...", path, f.getKey().substring(0, Math.min(80, f.getKey().length())))
          .isLessThanOrEqualTo(256);
      if ((f.getKey().equals("host") || f.getKey().equals("who")) && f.getValue().isTextual()) {
        assertThat(f.getValue().asText().length()).as("%s.%s", path, f.getKey()).isLessThanOrEqualTo(255);
      }
      assertShortKeys(f.getValue(), path + "." + f.getKey());
    });
    if (n.isArray()) {
      n.forEach(x -> assertShortKeys(x, path + "[]"));
    }
  }

  /** A text with one of its lines stretched ({@code line}: that line, for the failure message). */
  record Stretched(String input, String line) {}

  /** Every text with each of its line kinds (the first line of each shape) stretched, one at a time. */
  private static List<Stretched> stretchedTexts(List<String> texts, int target) {
    List<Stretched> out = new ArrayList<>();
    Set<String> seen = new LinkedHashSet<>();
    for (String text : texts) {
      String[] lines = text.split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].isBlank() || !seen.add(shape(lines[i]))) {
          continue;
        }
        for (String s : stretched(lines[i], target)) {
          String[] copy = lines.clone();
          copy[i] = s;
          out.add(new Stretched(String.join("\n", copy), s));
        }
      }
    }
    return out;
  }

  @Test
  void everyProbeOutputLineStretchedParses() throws Exception {
    List<String> failures = new ArrayList<>();
    for (Map.Entry<String, Function<String, Object>> parser : AllParsersFuzzTest.PROBES.entrySet()) {
      for (Stretched s : stretchedTexts(AllParsersFuzzTest.PROBE_SAMPLES.get(parser.getKey()), PROBE_LINE)) {
        Throwable t = onSmallStack(() -> assertThat(parser.getValue().apply(s.input())).isNotNull());
        if (t != null && failures.size() < 8) {
          failures.add(parser.getKey() + ": " + t + "\n    on " + s.line().substring(0, Math.min(120, s.line().length())));
        }
      }
    }
    assertThat(failures).isEmpty();
  }

  @Test
  void everyManifestAndTestsOutputLineStretchedParsesOrIsRejectedCleanly() throws Exception {
    List<String> failures = new ArrayList<>();
    for (Stretched s : stretchedTexts(AllParsersFuzzTest.MANIFESTS, PROBE_LINE)) {
      Throwable t = onSmallStack(() -> {
        try {
          new ManifestSource(null, Set.of()).parse("stretched.yaml", s.input());
        } catch (ManifestException expected) {
          assertThat(expected.getMessage()).startsWith("stretched.yaml:").doesNotContain("\n");
        }
      });
      if (t != null && failures.size() < 8) {
        failures.add("manifest: " + t + "\n    on " + s.line().substring(0, Math.min(120, s.line().length())));
      }
    }
    for (Stretched s : stretchedTexts(AllParsersFuzzTest.BW, PROBE_LINE)) {
      Throwable t = onSmallStack(() -> {
        try {
          assertThat(new NcclTestsParser().parse(new BufferedReader(new StringReader(s.input())), "s.out").hosts())
              .allSatisfy(h -> assertThat(h.length()).as("a host").isLessThanOrEqualTo(255));
        } catch (java.io.IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      if (t != null && failures.size() < 8) {
        failures.add("nccl-tests: " + t + "\n    on " + s.line().substring(0, Math.min(120, s.line().length())));
      }
    }
    assertThat(failures).isEmpty();
  }
}
