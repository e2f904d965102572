package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import dev.nccltriage.host.TarGz;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code capture} on this host, then {@code check --root DIR} / {@code check --capture FILE}: the
 * replay must reach the verdict the live {@code check} reaches (on a developer machine without
 * RDMA, like this one, that is still a verdict). {@code capture --redact} must leave none of this
 * machine's IPv4 addresses, MAC addresses or host name in any file or path.
 */
class ReplayTest {
  private static JsonNode live;

  @TempDir Path tmp;

  @BeforeAll
  static void checkLive() {
    CliRun run = CliRun.run("check", "-o", "json");
    assertThat(run.exitCode()).as(run.toString()).isIn(0, 1, 3);
    live = run.json();
  }

  private static CliRun capture(String... args) {
    String[] all = new String[args.length + 1];
    all[0] = "capture";
    System.arraycopy(args, 0, all, 1, args.length);
    CliRun run = CliRun.run(all);
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stdout()).as("capture writes nothing on stdout").isEmpty();
    assertThat(run.stderr()).as("capture's one line on stderr").contains("capture written to");
    return run;
  }

  private static void assertSameVerdict(CliRun replay, String what) {
    assertSameVerdict(replay, live, what);
  }

  private static void assertSameVerdict(CliRun replay, JsonNode live, String what) {
    assertThat(replay.stderr()).as("stderr of %s", what).isEmpty();
    JsonNode doc = replay.json();
    assertThat(Captures.schemaErrors(doc)).isEmpty();
    assertThat(replay.exitCode())
        .as("exit code of %s", what)
        .isEqualTo(CliRun.exitCodeFor(live.at("/verdict/status").asText()));
    SoftAssertions softly = new SoftAssertions();
    softly.assertThat(doc.at("/verdict/status")).as("verdict.status of %s", what)
        .isEqualTo(live.at("/verdict/status"));
    softly.assertThat(doc.at("/verdict/layer")).as("verdict.layer of %s", what)
        .isEqualTo(live.at("/verdict/layer"));
    softly.assertThat(Captures.ladderStatuses(doc)).as("ladder statuses of %s", what)
        .isEqualTo(Captures.ladderStatuses(live));
    softly.assertAll();
  }

  @Test
  void aCaptureFolderReplaysToTheLiveVerdict() throws IOException {
    Path dir = tmp.resolve("cap");
    capture("-o", dir.toString());
    assertThat(dir.resolve(".nccl-triage/commands")).isDirectory();
    CliRun replay = CliRun.run("check", "--root", dir.toString(), "-o", "json");
    assertSameVerdict(replay, "check --root DIR");
    // nothing on this host changes between the two runs: the whole report is the same
    assertThat(replay.json().get("verdict")).isEqualTo(live.get("verdict"));
    assertThat(replay.json().get("ladder")).isEqualTo(live.get("ladder"));
  }

  @Test
  void aCaptureArchiveReplaysToTheLiveVerdict() {
    Path file = tmp.resolve("x.tar.gz");
    capture("-o", file.toString());
    assertThat(file).isRegularFile();
    CliRun replay = CliRun.run("check", "--capture", file.toString(), "-o", "json");
    assertSameVerdict(replay, "check --capture x.tar.gz");
    assertThat(replay.json().get("ladder")).isEqualTo(live.get("ladder"));
  }

  // --- redaction -------------------------------------------------------------------------------

  /** What must not leave the machine, by kind, each with the pattern that finds it. */
  private static Map<String, Pattern> secrets() throws IOException {
    Map<String, Pattern> out = new LinkedHashMap<>();
    for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress a : Collections.list(ni.getInetAddresses())) {
        if (a instanceof Inet4Address && !a.isLoopbackAddress()) {
          String ip = a.getHostAddress();
          out.put("IPv4 " + ip + " (" + ni.getName() + ")",
              Pattern.compile("(?<![0-9.])" + Pattern.quote(ip) + "(?![0-9])"));
        }
      }
      byte[] mac = ni.getHardwareAddress();
      if (mac != null && !allZero(mac)) {
        List<String> parts = new ArrayList<>();
        for (byte b : mac) {
          parts.add(String.format("%02x", b));
        }
        String text = String.join(":", parts);
        out.put("MAC " + text + " (" + ni.getName() + ")",
            Pattern.compile("(?i)(?<![0-9a-f:])" + Pattern.quote(text) + "(?![0-9a-f:])"));
      }
    }
    for (String h : hostNames()) {
      out.put("host name " + h,
          Pattern.compile("(?i)(?<![a-z0-9-])" + Pattern.quote(h) + "(?![a-z0-9-])"));
    }
    return out;
  }

  private static Set<String> hostNames() throws IOException {
    Set<String> names = new LinkedHashSet<>();
    try {
      names.add(InetAddress.getLocalHost().getHostName());
    } catch (IOException e) {
      // no resolvable local host name: /proc still has it
    }
    Path proc = Path.of("/proc/sys/kernel/hostname");
    if (Files.isReadable(proc)) {
      names.add(Files.readString(proc).strip());
    }
    Set<String> out = new LinkedHashSet<>();
    for (String n : names) {
      String lower = n.toLowerCase(Locale.ROOT);
      if (!lower.isBlank() && !lower.equals("localhost") && !lower.startsWith("localhost.")) {
        out.add(lower);
        int dot = lower.indexOf('.');
        if (dot > 0) {
          out.add(lower.substring(0, dot));
        }
      }
    }
    return out;
  }

  private static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  /** "kind in path" for every secret found in a file's content or in its path under {@code dir}. */
  private static List<String> leaks(Path dir, Map<String, Pattern> secrets) throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        String rel = dir.relativize(p).toString();
        String content =
            Files.isRegularFile(p)
                ? new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1)
                : Files.isSymbolicLink(p) ? Files.readSymbolicLink(p).toString() : "";
        secrets.forEach(
            (kind, pattern) -> {
              if (pattern.matcher(rel).find()) {
                found.add(kind + " in the path " + rel);
              }
              if (pattern.matcher(content).find()) {
                found.add(kind + " in the content of " + rel);
              }
            });
      }
    }
    return found;
  }

  /** NCCL_* variables that carry an address and a host name, as a real job's would. */
  private static Map<String, String> envWithSecrets(Map<String, Pattern> secrets) throws IOException {
    Map<String, String> env = new LinkedHashMap<>(CliRun.ENV);
    secrets.keySet().stream()
        .filter(k -> k.startsWith("IPv4 "))
        .findFirst()
        .ifPresent(k -> env.put("NCCL_COMM_ID", k.split(" ")[1] + ":29500"));
    hostNames().stream().findFirst().ifPresent(h -> env.put("NCCL_HOSTID", h));
    return env;
  }

  @Test
  void aRedactedCaptureHoldsNoAddressOrHostNameOfThisMachine() throws IOException {
    Map<String, Pattern> secrets = secrets();
    assertThat(secrets).as("this machine has a host name, addresses or MACs to hide").isNotEmpty();
    Map<String, String> env = envWithSecrets(secrets);

    // the plain capture does hold them, so the scan below can see them
    Path plain = tmp.resolve("plain");
    assertThat(Captures.run(env, "capture", "-o", plain.toString()).exitCode()).isZero();
    assertThat(leaks(plain, secrets)).as("secrets found in the unredacted capture").isNotEmpty();

    Path dir = tmp.resolve("redacted");
    CliRun run = Captures.run(env, "capture", "--redact", "-o", dir.toString());
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(run.stderr()).contains("(redacted)");
    assertThat(leaks(dir, secrets)).as("secrets in the redacted capture folder").isEmpty();

    Path file = tmp.resolve("redacted.tar.gz");
    assertThat(Captures.run(env, "capture", "--redact", "-o", file.toString()).exitCode()).isZero();
    byte[] archive = Files.readAllBytes(file);
    Path extracted = Files.createDirectories(tmp.resolve("extracted"));
    TarGz.extract(file, extracted);
    assertThat(leaks(extracted, secrets)).as("secrets in the redacted archive").isEmpty();
    assertThat(archive).isNotEmpty();

    // and the redacted capture still replays to the live verdict (with the same environment)
    JsonNode liveWithEnv = Captures.run(env, "check", "-o", "json").json();
    assertSameVerdict(CliRun.run("check", "--root", dir.toString(), "-o", "json"), liveWithEnv,
        "check --root REDACTED-DIR");
    assertSameVerdict(CliRun.run("check", "--capture", file.toString(), "-o", "json"), liveWithEnv,
        "check --capture REDACTED.tar.gz");
  }
}
