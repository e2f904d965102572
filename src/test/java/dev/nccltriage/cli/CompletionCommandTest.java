package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CompletionCommandTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    Context ctx = new Context(new ByteArrayInputStream(new byte[0]), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Path.of("").toAbsolutePath(), false);
    return NcclTriage.mainWithoutExit(ctx, args);
  }

  @Test
  void bashScriptCompletesEverySubcommandAndTheirOptions() {
    assertThat(run("completion", "bash")).isZero();
    String script = out.toString(StandardCharsets.UTF_8);
    assertThat(script).contains("complete -F").contains("nccl-triage");
    for (String word : new String[] {"log", "check", "preflight", "capture", "rules", "--expect-hcas", "--fail-on"}) {
      assertThat(script).as(word).contains(word);
    }
  }

  @Test
  void unknownShellIsAUsageError() {
    assertThat(run("completion", "fish")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("nccl-triage: completion: unknown shell 'fish'");
  }
}
