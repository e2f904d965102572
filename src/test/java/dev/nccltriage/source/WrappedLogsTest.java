package dev.nccltriage.source;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.nccltriage.facts.LogFacts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What kubectl, a container runtime, mpirun, srun, syslog or NCCL itself puts around every line
 * (a timestamp, a Pod prefix, a rank tag or label, a service's sender, CRLF) changes no fact the rules read, for every sample and corpus log: the lines of
 * a thread are found again after it (the prefix cache keys them from where the record starts),
 * each line is still its own, and a bare message (PyTorch's "Last error:" repeats the WARN's text)
 * is still read after it.
 */
class WrappedLogsTest {
  static Stream<Path> logs() throws Exception {
    return Logs.allLogs().stream();
  }

  /** Each line of the log after what {@code wrapper} gives for its number (from 1). */
  private static String numbered(String log, java.util.function.IntFunction<String> wrapper) {
    StringBuilder b = new StringBuilder();
    int n = 0;
    for (String line : log.split("\n", -1)) {
      b.append(wrapper.apply(++n)).append(line).append('\n');
    }
    return b.toString();
  }

  private static String stamped(String log, String after) {
    return numbered(log, n -> String.format("2026-05-01T10:%02d:%02d.%09dZ ", n / 3600 % 60, n / 60 % 60, n) + after);
  }

  /** What the rules read of a log, without its evidence (whose cited lines carry the timestamps). */
  private static List<Object> facts(LogFacts f) {
    return List.of(String.valueOf(f.transport()), String.valueOf(f.rdma()), String.valueOf(f.ranks()), f.processes(),
        String.valueOf(f.nodes()), String.valueOf(f.netChannels()), String.valueOf(f.hcas()), String.valueOf(f.gdr()),
        f.errors().stream().map(e -> e.kind() + "/" + e.detail() + "/" + e.count() + "/" + e.hosts()).toList(),
        f.nodeDetails().stream().map(n -> n.host() + "/" + n.transport() + "/" + n.netChannels()).toList(),
        f.ncclLines(), String.valueOf(f.bootstrap()), String.valueOf(f.socketInterfaces()), f.env());
  }

  @ParameterizedTest
  @MethodSource("logs")
  void aTimestampBeforeEveryLineChangesNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));

    assertThat(facts(Logs.parse(stamped(text, "")))).as("kubectl --timestamps").isEqualTo(plain);
    assertThat(facts(Logs.parse(stamped(text, "stdout F ")))).as("CRI log file").isEqualTo(plain);
  }

  /** What else wraps every line the same way: each must change no fact either. */
  @ParameterizedTest
  @MethodSource("logs")
  void aWrapperAroundEveryLineChangesNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));

    assertThat(facts(Logs.parse(each(text, "[pod/trainer-0/pytorch] ", "")))).as("kubectl --prefix").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "[1,0]<stdout>:", "")))).as("mpirun --tag-output").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "[default0]:", "")))).as("torchrun's local rank tag").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "", "\r")))).as("CRLF line ends").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "\u001b[32m", "\u001b[0m")))).as("ANSI colour").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "(RayWorkerWrapper pid=3051, ip=10.0.0.1) ", "")))).as("Ray's prefix")
        .isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "3: ", "")))).as("srun --label").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, " 12: ", "")))).as("srun --label, padded").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "> ", "")))).as("a markdown quote").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "- ", "")))).as("a markdown list").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "| 2026-05-01 10:00:00.123 | ", " |")))).as("CloudWatch's columns")
        .isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "2026-05-01T10:00:00.123Z\t", "")))).as("Loki's export").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "2026-05-01 10:15:30\t", "")))).as("a time of day and a tab")
        .isEqualTo(plain);
    // what no table knows; a bare message ("Last error:"'s) is read as far into its line as the
    // wrapper reached on the NCCL lines before it
    assertThat(facts(Logs.parse(each(text, "trainer-0 pytorch ", "")))).as("stern").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "worker-1: ", "")))).as("pdsh").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "logs/rank0.log:", "")))).as("grep -H").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "INFO: ", "")))).as("a logger's level").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "trainer-1  | ", "")))).as("docker compose").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "[1,mpirank:0,algo-1]<stdout>:", "")))).as("SageMaker's MPI tag")
        .isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "[rank0]:", "")))).as("PyTorch's rank tag").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text, "10.0.0.1: ", "")))).as("pdsh by address").isEqualTo(plain);
  }

  /**
   * NCCL's own timestamp (2.26+, NCCL_DEBUG_TIMESTAMP_LEVELS=ALL, the default format and one with a
   * fraction), alone and after a task label.
   */
  @ParameterizedTest
  @MethodSource("logs")
  void ncclsOwnTimestampChangesNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));
    assertThat(facts(Logs.parse(ncclStamped(text, "", "")))).as("[%F %T] ").isEqualTo(plain);
    assertThat(facts(Logs.parse(ncclStamped(text, "", ".123456")))).as("[%F %T.%6f] ").isEqualTo(plain);
    assertThat(facts(Logs.parse(ncclStamped(text, "7: ", "")))).as("after srun --label").isEqualTo(plain);
  }

  /**
   * A job run as a service: syslog's traditional header (the day padded with a space), journalctl's
   * short and short-precise ones (a zero), and an ISO time before the sender (short-iso, rsyslog's
   * RFC 3339 format); the time changes from line to line, the sender does not.
   */
  @ParameterizedTest
  @MethodSource("logs")
  void syslogAndJournaldHeadersChangeNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));
    String sender = "gpu-node-1 python3[4242]: ";
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("Dec  %d %02d:%02d:%02d ", n % 9 + 1, n / 3600 % 24,
        n / 60 % 60, n % 60) + sender)))).as("syslog").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("Jun %02d 10:%02d:%02d.%06d ", n % 28 + 1, n / 60 % 60,
        n % 60, n) + sender)))).as("journalctl -o short-precise").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("2026-05-01T10:%02d:%02d+0000 ", n / 60 % 60, n % 60)
        + sender)))).as("journalctl -o short-iso").isEqualTo(plain);
  }

  /**
   * What no table knows and changes from line to line: grep's line numbers (alone and after the
   * file name), cat -n's column, seconds since the epoch. The prefix cache finds a thread's lines
   * past them.
   */
  @ParameterizedTest
  @MethodSource("logs")
  void anUnknownWrapperThatChangesFromLineToLineChangesNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));
    assertThat(facts(Logs.parse(numbered(text, n -> n + ":")))).as("grep -n").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> "logs/rank0.log:" + n + ":")))).as("grep -Hn").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("%6d\t", n))))).as("cat -n").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("%d.%06d ", 1714550400 + n / 100, n * 7919 % 1000000)))))
        .as("epoch seconds").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("2026-05-01T10:%02d:%02d.%07dZ ", n / 60 % 60, n % 60,
        n))))).as("GitHub Actions' time (seven digits)").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("2026-05-01 10:%02d:%02d,%03d - INFO - ", n / 60 % 60,
        n % 60, n % 1000))))).as("Python logging's default format").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("I0501 10:%02d:%02d.%06d  1234 nccl_utils.cc:42] ",
        n / 60 % 60, n % 60, n))))).as("glog").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> (n % 2 == 0 ? "worker-0" : "worker-1") + "  | "))))
        .as("docker compose, two services").isEqualTo(plain);
  }

  /**
   * A time in brackets: the kernel's seconds since boot (dmesg), journald's short-monotonic header
   * (those seconds and the sender), a logger's time of day, with milliseconds or without.
   */
  @ParameterizedTest
  @MethodSource("logs")
  void aTimeInBracketsChangesNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("[%12.6f] ", n / 1000.0))))).as("dmesg's time")
        .isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("[%5d.%06d] gpu-node-1 python3[4242]: ", n / 100,
        n * 7919 % 1000000))))).as("journalctl -o short-monotonic").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("[10:%02d:%02d] ", n / 60 % 60, n % 60)))))
        .as("a time of day").isEqualTo(plain);
    assertThat(facts(Logs.parse(numbered(text, n -> String.format("[10:%02d:%02d.%03d] ", n / 60 % 60, n % 60, n % 1000)))))
        .as("a time of day with milliseconds").isEqualTo(plain);
  }

  private static String ncclStamped(String log, String before, String fraction) {
    return numbered(log, n -> before + String.format("[2026-05-01 10:%02d:%02d%s] ", n / 60 % 60, n % 60, fraction));
  }

  /**
   * JSON-lines logs, each line a JSON object: Docker's json-file as Go writes it, or with spaces as
   * others do; Fluent Bit's "log" after its "date" and a nested "kubernetes" object; an export's
   * "message" after its timestamp.
   */
  @ParameterizedTest
  @MethodSource("logs")
  void jsonLinesRecordsChangeNoFact(Path log) throws Exception {
    String text = Files.readString(log);
    List<Object> plain = facts(Logs.parse(text));
    assertThat(facts(Logs.parse(docker(text, "{\"log\":\"", "\",\"stream\":\"stdout\",\"time\":\"2026-05-01T10:00:00.1Z\"}"))))
        .as("Docker json-file").isEqualTo(plain);
    assertThat(facts(Logs.parse(docker(text, "{\"log\": \"", "\", \"stream\": \"stderr\"}")))).as("with spaces")
        .isEqualTo(plain);
    assertThat(facts(Logs.parse(docker(text,
        "{\"date\":1714550400.123,\"kubernetes\":{\"pod_name\":\"trainer-0\",\"labels\":{\"app\":\"x\"}},\"log\":\"",
        "\"}")))).as("Fluent Bit").isEqualTo(plain);
    assertThat(facts(Logs.parse(docker(text, "{\"timestamp\": 1714550400123, \"message\": \"", "\"}"))))
        .as("an export's message field").isEqualTo(plain);
    // Loki's logcli names its text field "line"; Google Cloud nests it in a payload object
    assertThat(facts(Logs.parse(docker(text, "{\"labels\":{\"pod\":\"trainer-0\"},\"line\":\"",
        "\",\"timestamp\":\"2026-05-01T10:00:00.1Z\"}")))).as("Loki's logcli").isEqualTo(plain);
    assertThat(facts(Logs.parse(docker(text, "{\"jsonPayload\":{\"pid\":7,\"message\":\"", "\"},\"severity\":\"INFO\"}"))))
        .as("a nested payload").isEqualTo(plain);
    // a CSV export's last column, every field quoted (a quote inside doubled); a logfmt msg value
    assertThat(facts(Logs.parse(each(text.replace("\"", "\"\""), "\"2026-05-01T10:00:00.1Z\",\"trainer-0\",\"", "\""))))
        .as("CSV").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text.replace("\\", "\\\\").replace("\"", "\\\""),
        "time=2026-05-01T10:00:00.1Z level=info msg=\"", "\"")))).as("logfmt").isEqualTo(plain);
    // the same with fields after the text: CloudWatch Logs Insights' @timestamp,@message,@logStream;
    // a collector's logfmt with its own keys last
    assertThat(facts(Logs.parse(each(text.replace("\"", "\"\""), "2026-05-01 10:00:00.100,\"", "\",trainer-0/main/4f2a"))))
        .as("CSV, a column after").isEqualTo(plain);
    assertThat(facts(Logs.parse(each(text.replace("\\", "\\\\").replace("\"", "\\\""),
        "ts=2026-05-01T10:00:00.1Z level=info msg=\"", "\" pod=trainer-0 container=main")))).as("logfmt, keys after")
        .isEqualTo(plain);
    assertThat(facts(Logs.parse(docker(each(text.replace("\\", "\\\\").replace("\"", "\\\""), "ts=1 msg=\"", "\" pod=w-0"),
        "{\"log\":\"", "\"}")))).as("logfmt in a JSON record").isEqualTo(plain);
    // a shipper that wrapped a runtime's JSON record again (Fluent Bit tailing Docker's files without
    // its docker parser), with and without the inner record's other fields, three deep too
    String docker = docker(text, "{\"log\":\"", "\",\"stream\":\"stdout\"}");
    assertThat(facts(Logs.parse(docker(docker.replace("\n\n", "\n").stripTrailing(), "{\"log\":\"", "\",\"stream\":\"stdout\"}"))))
        .as("a JSON record in a JSON record").isEqualTo(facts(Logs.parse(text)));
    String bare = docker(text, "{\"log\":\"", "\"}");
    assertThat(facts(Logs.parse(docker(docker(bare.stripTrailing(), "{\"log\":\"", "\"}").stripTrailing(), "{\"log\":\"", "\"}"))))
        .as("three deep").isEqualTo(facts(Logs.parse(text)));
    // a logger that colours its lines: the ESC bytes arrive escaped, and are stripped once decoded
    assertThat(facts(Logs.parse(docker(each(text.replace("\n\n", "\n"), "\u001b[32m", "\u001b[0m"), "{\"log\":\"",
        "\",\"stream\":\"stdout\"}")))).as("coloured").isEqualTo(facts(Logs.parse(text.replace("\n\n", "\n"))));
  }

  private static String docker(String log, String before, String after) {
    StringBuilder b = new StringBuilder();
    for (String line : log.split("\n", -1)) {
      b.append(before).append(JsonStringEncoder.getInstance().quoteAsString(line + "\n")).append(after).append('\n');
    }
    return b.toString();
  }

  private static String each(String log, String before, String after) {
    StringBuilder b = new StringBuilder();
    for (String line : log.split("\n", -1)) {
      b.append(before).append(line).append(after).append('\n');
    }
    return b.toString();
  }
}
