package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every command's help (off a terminal: 80 columns) and the bash completion script, against the
 * files under {@code src/test/resources/help/}, byte for byte. The commands' picocli models are
 * built in code ({@link Specs}); these files hold what users read from them: options, their
 * parameter labels, defaults, exit codes, and the completion candidates.
 *
 * <p>After an intended change, regenerate and review the diff:
 *
 * <pre>mvn -Dgolden.update=true -Dtest=HelpGoldenTest test</pre>
 */
class HelpGoldenTest {
  private static final Path GOLDEN = CliRun.REPO.resolve("src/test/resources/help");
  private static final boolean UPDATE = Boolean.getBoolean("golden.update");

  /** The golden file's name, then the arguments that print it. */
  static Stream<Arguments> outputs() {
    Stream<Arguments> commands = NcclTriage.SUBCOMMANDS.keySet().stream()
        .filter(n -> !n.equals("help"))
        .map(n -> output(n + ".txt", n, "--help"));
    return Stream.concat(
        Stream.of(output("nccl-triage.txt", "--help"), output("completion-bash.sh", "completion", "bash")), commands);
  }

  private static Arguments output(String file, String... args) {
    return Arguments.of(file, args);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("outputs")
  void matchesGolden(String file, String[] cli) throws IOException {
    CliRun run = CliRun.run(cli);
    assertThat(run.exitCode()).as("exit code of %s", String.join(" ", cli)).isZero();
    assertThat(run.stderr()).isEmpty();
    Path golden = GOLDEN.resolve(file);
    if (UPDATE) {
      Files.createDirectories(GOLDEN);
      Files.write(golden, run.stdoutBytes());
      return;
    }
    assertThat(golden).as("golden file missing; create it with mvn -Dgolden.update=true -Dtest=HelpGoldenTest test")
        .exists();
    assertThat(run.stdout()).as("%s against %s", String.join(" ", cli), CliRun.REPO.relativize(golden))
        .isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
  }
}
