package dev.nccltriage.bw;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every sample under samples/nccl-tests (with --hcas 8 --rate 400), and the ones with a companion
 * NCCL log, in json, text and markdown, against samples/nccl-tests/golden/; plus the hypothesis each
 * must name. Regenerate: {@code mvn -Dgolden.update=true -Dtest=GoldenBwTest test}.
 */
class GoldenBwTest {
  private static final Path DIR = CliRun.REPO.resolve("samples/nccl-tests");
  private static final Path GOLDEN = DIR.resolve("golden");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");

  static Stream<Arguments> cases() {
    String log06 = "samples/logs/06-partial-hcas-2of8-2.23.4.log";
    String log10 = "samples/logs/10-no-gdr-reason-not-logged-2.22.3.log";
    String log02 = "samples/logs/02-socket-no-device-k8s-2.19.3.log";
    String log01 = "samples/logs/01-healthy-ib-gdr-2.21.5.log";
    return Stream.of(
        Arguments.of("01-healthy-8x400g-2.17.6", null, "healthy", null),
        Arguments.of("02-socket-fallback-2.15", null, "socket-fallback", "socket"),
        Arguments.of("03-no-gdr-2.11", null, "no-gdr-or-few-nics", null),
        Arguments.of("04-two-of-eight-nics-2.17.6", null, "no-gdr-or-few-nics", null),
        Arguments.of("05-single-node-nvlink-2.17.6", null, "single-node", null),
        Arguments.of("06-too-small-2.15", null, "too-small", null),
        Arguments.of("01-healthy-8x400g-2.17.6", log01, "healthy", null),
        Arguments.of("03-no-gdr-2.11", log10, "no-gdr-or-few-nics", "no-gdr"),
        Arguments.of("04-two-of-eight-nics-2.17.6", log06, "no-gdr-or-few-nics", "few-nics"),
        Arguments.of("04-two-of-eight-nics-2.17.6", log02, "socket-fallback", "socket"));
  }

  @ParameterizedTest(name = "{0} log={1}")
  @MethodSource("cases")
  void matchesGoldenAndNamesTheHypothesis(String sample, String log, String hypothesis, String confirmedBy)
      throws IOException {
    String base = sample + (log == null ? "" : "+" + Path.of(log).getFileName().toString().substring(0, 2) + "-log");
    for (String[] form : new String[][] {{"json", ".json"}, {"text", ".txt"}, {"markdown", ".md"}}) {
      List<String> args = new ArrayList<>(List.of("bw", "--hcas", "8", "--rate", "400", "-o", form[0]));
      if (log != null) {
        args.addAll(List.of("--log", log));
      }
      args.add("samples/nccl-tests/" + sample + ".out");
      CliRun run = CliRun.run(args.toArray(String[]::new));
      assertThat(run.stderr()).as("stderr").isEmpty();
      if (form[0].equals("json")) {
        assertThat(run.json().get("bw").get("hypothesis").asText()).isEqualTo(hypothesis);
        assertThat(run.json().get("bw").get("confirmedBy").isNull() ? null
            : run.json().get("bw").get("confirmedBy").asText()).isEqualTo(confirmedBy);
        assertThat(run.exitCode()).isEqualTo(CliRun.exitCodeFor(run.json().get("verdict").get("status").asText()));
      }
      Path golden = GOLDEN.resolve(base + form[1]);
      if (UPDATE) {
        Files.createDirectories(GOLDEN);
        Files.write(golden, run.stdoutBytes());
        continue;
      }
      assertThat(golden).as("golden missing; mvn -Dgolden.update=true -Dtest=GoldenBwTest test").exists();
      assertThat(run.stdout()).as("%s -o %s", base, form[0])
          .isEqualTo(new String(Files.readAllBytes(golden), StandardCharsets.UTF_8));
    }
  }
}
