package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** A run that names a leaf command builds only that one; it must behave as with the whole tree. */
class CommandTreeTest {
  private static final CommandLine.IFactory FACTORY = new NcclTriage.Factory(new Context(java.io.InputStream.nullInputStream(),
      System.out, System.err, CliRun.ENV, CliRun.REPO, false));

  static Stream<String> leaves() {
    return NcclTriage.SUBCOMMANDS.keySet().stream().filter(n -> !n.equals("help") && !n.equals("completion"));
  }

  @Test
  void namesAreThoseOfTheModels() throws Exception {
    for (var e : NcclTriage.SUBCOMMANDS.entrySet()) {
      Object command = FACTORY.create(e.getValue());
      String name = command instanceof Specs.Modelled m ? m.model().name()
          : e.getValue().getAnnotation(Command.class).name(); // picocli's help command
      assertThat(name).as(e.getValue().getName()).isEqualTo(e.getKey());
    }
    assertThat(NcclTriage.commandLine(FACTORY).getSubcommands().keySet())
        .containsExactlyElementsOf(NcclTriage.SUBCOMMANDS.keySet());
  }

  @ParameterizedTest
  @MethodSource("leaves")
  void aLeafCommandGetsOnlyItselfAndTheSameHelp(String name) {
    CommandLine lazy = NcclTriage.commandLine(FACTORY, name, "--debug", "x");
    assertThat(lazy.getSubcommands().keySet()).containsExactly(name);
    CommandLine whole = NcclTriage.commandLine(FACTORY);
    // help as the tool prints it off a terminal: wrapped between words at 80
    HelpWrap.apply(whole, 80);
    HelpWrap.apply(lazy, 80);
    assertThat(CliRun.run(name, "--help").stdout())
        .isEqualTo(whole.getSubcommands().get(name).getUsageMessage())
        .isEqualTo(lazy.getSubcommands().get(name).getUsageMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"--version", "-V"})
  void aLoneVersionGetsTheRootAlone(String option) {
    assertThat(NcclTriage.commandLine(FACTORY, option).getSubcommands()).isEmpty();
    assertThat(CliRun.run(option).stdout()).isEqualTo("nccl-triage " + NcclTriage.version() + "\n");
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "help", "completion", "lgo", "--", "--help", "-V"})
  void anythingElseGetsTheWholeTree(String first) {
    String[] args = first.isEmpty() ? new String[0] : new String[] {first, "log"};
    assertThat(NcclTriage.commandLine(FACTORY, args).getSubcommands().keySet())
        .containsExactlyElementsOf(NcclTriage.SUBCOMMANDS.keySet());
  }
}
