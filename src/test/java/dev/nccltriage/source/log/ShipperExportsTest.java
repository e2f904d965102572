package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.InputStats;
import dev.nccltriage.facts.LogFacts;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sample log, exported as log systems export it, reads as the log itself: the network, the
 * errors and their details, whether the job failed, the NCCL lines. Line numbers differ (a record
 * may span lines, a line hold several); nothing else that decides a verdict may.
 */
class ShipperExportsTest {
  private static String json(String text) {
    StringBuilder sb = new StringBuilder();
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> sb.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
      }
    }
    return sb.toString();
  }

  /** aws logs filter-log-events --output text: the message between the stream's name and the event's time. */
  private static String cloudWatchText(List<String> lines) {
    StringBuilder sb = new StringBuilder();
    long t = 1777629600000L;
    for (String l : lines) {
      sb.append("EVENTS\t").append(t * 10).append('\t').append(t + 300).append("\tkube/train-0\t").append(l)
          .append('\t').append(t++).append('\n');
    }
    return sb.toString();
  }

  /** gcloud logging read --format=json: an array of records, each field on a line of its own. */
  private static String gcloudJson(List<String> lines) {
    StringBuilder sb = new StringBuilder("[\n");
    for (int i = 0; i < lines.size(); i++) {
      sb.append("  {\n    \"insertId\": \"id").append(i).append("\",\n    \"resource\": {\n      \"type\": \"k8s_container\"\n")
          .append("    },\n    \"textPayload\": \"").append(json(lines.get(i))).append("\",\n")
          .append("    \"timestamp\": \"2026-05-01T10:00:00Z\"\n  }").append(i + 1 < lines.size() ? ",\n" : "\n");
    }
    return sb.append("]\n").toString();
  }

  /** Splunk's JSON export: the event under "result", its text "_raw". */
  private static String splunkJson(List<String> lines) {
    StringBuilder sb = new StringBuilder();
    for (String l : lines) {
      sb.append("{\"preview\":false,\"result\":{\"_raw\":\"").append(json(l))
          .append("\",\"_time\":\"2026-05-01T10:00:00.000+00:00\",\"host\":\"train-0\"}}\n");
    }
    return sb.toString();
  }

  /** A shipper's multi-line events (Fluent Bit's or Filebeat's multiline parser): one to five lines a record. */
  private static String multiLineEvents(List<String> lines) {
    StringBuilder sb = new StringBuilder();
    Random r = new Random(lines.size());
    for (int i = 0; i < lines.size(); ) {
      int n = Math.min(lines.size() - i, 1 + r.nextInt(5));
      sb.append("{\"@timestamp\":\"2026-05-01T10:00:00Z\",\"message\":\"")
          .append(json(String.join("\n", lines.subList(i, i + n)))).append("\",\"stream\":\"stdout\"}\n");
      i += n;
    }
    return sb.toString();
  }

  /** The same events as a logfmt logger writes them (a Go service, promtail's output): {@code msg="..."}. */
  private static String multiLineLogfmt(List<String> lines) {
    StringBuilder sb = new StringBuilder();
    Random r = new Random(lines.size() + 1);
    for (int i = 0; i < lines.size(); ) {
      int n = Math.min(lines.size() - i, 1 + r.nextInt(5));
      String text = String.join("\n", lines.subList(i, i + n)).replace("\\", "\\\\").replace("\"", "\\\"")
          .replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r");
      sb.append("ts=2026-05-01T10:00:00Z level=info msg=\"").append(text).append("\" stream=stdout\n");
      i += n;
    }
    return sb.toString();
  }

  /** {@link CsvExports#multiLineCells} with its header row. */
  private static String multiLineCsv(List<String> lines, boolean last) {
    return (last ? "\"Date\",\"Host\",\"Message\"\n" : "\"Date\",\"Message\",\"Host\"\n")
        + CsvExports.multiLineCells(lines, new Random(lines.size() + 2), last);
  }

  record Export(String name, Function<List<String>, String> write) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Object[]> logsAndExports() throws IOException {
    List<Export> exports = List.of(new Export("CloudWatch text", ShipperExportsTest::cloudWatchText),
        new Export("gcloud JSON", ShipperExportsTest::gcloudJson), new Export("Splunk JSON", ShipperExportsTest::splunkJson),
        new Export("multi-line events", ShipperExportsTest::multiLineEvents),
        new Export("multi-line logfmt", ShipperExportsTest::multiLineLogfmt),
        new Export("multi-line CSV", l -> multiLineCsv(l, true)),
        new Export("multi-line CSV, a column after", l -> multiLineCsv(l, false)));
    List<Object[]> cases = new ArrayList<>();
    try (Stream<Path> s = Files.list(Path.of("samples", "logs"))) {
      for (Path p : s.filter(x -> x.toString().endsWith(".log")).sorted().toList()) {
        for (Export x : exports) {
          cases.add(new Object[] {p.getFileName().toString(), x});
        }
      }
    }
    return cases.stream();
  }

  private static LogFacts parse(String text) throws IOException {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    LogAccumulator acc = new LogAccumulator();
    new LineReader(LineReader.DEFAULT_MAX_LINE).read(new ByteArrayInputStream(bytes), Long.MAX_VALUE,
        new LogParser(acc, "x.log"));
    List<InputStats> stats = List.of(new InputStats("x.log", acc.lines, acc.ncclLines, acc.unplaced, acc.truncated));
    return new FactsBuilder(acc, stats).build();
  }

  private static List<String> errors(LogFacts f) {
    return f.errors().stream().map(e -> e.kind() + " " + e.detail() + " x" + e.count()).toList();
  }

  @ParameterizedTest(name = "{0} as {1}")
  @MethodSource("logsAndExports")
  void anExportReadsAsTheLog(String log, Export export) throws IOException {
    String plain = Files.readString(Path.of("samples", "logs", log), StandardCharsets.UTF_8);
    List<String> lines = List.of(plain.replace("\r\n", "\n").split("\n"));
    LogFacts want = parse(String.join("\n", lines) + "\n");
    LogFacts got = parse(export.write().apply(lines));

    assertThat(got.transport()).as("transport").isEqualTo(want.transport());
    assertThat(got.rdma()).as("rdma").isEqualTo(want.rdma());
    assertThat(got.signals().failed()).as("failed").isEqualTo(want.signals().failed());
    assertThat(errors(got)).as("errors").isEqualTo(errors(want));
    assertThat(got.ncclLines()).as("NCCL lines").isEqualTo(want.ncclLines());
    assertThat(got.env()).as("env").isEqualTo(want.env());
    assertThat(got.gdr()).as("gdr").isEqualTo(want.gdr());
  }
}
