package dev.nccltriage.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * The commands' picocli models, built through picocli's API rather than read from annotations.
 * Reading annotations is a third of picocli's start-up: the JVM parses every member's annotations
 * and generates a proxy class per annotation type, none of which a start-up archive keeps (a
 * command's model 66 -> 31 ms, every run). The models hold the same options, defaults and help
 * text as the annotations did; {@code HelpGoldenTest} holds the help and the completion script to it.
 */
final class Specs {
  private Specs() {}

  /** A command that builds its own model, bound to its fields. */
  interface Modelled {
    CommandSpec model();
  }

  private static final String EXIT_HEADING = "%nExit codes:%n";
  static final String[] EXIT_CODES = {"0:healthy", "1:problem found", "2:usage error", "3:inconclusive", "4:internal error"};

  /** The command line of a command's model, its standard help options added. */
  static CommandLine commandLine(Modelled command, CommandLine.IFactory factory) {
    return new CommandLine(withStandardHelp(command.model()), factory);
  }

  /** A command named {@code name} that picocli runs by calling {@code command}, with our version. */
  static CommandSpec command(Object command, String name, String... description) {
    CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(name);
    spec.versionProvider(new NcclTriage.Version());
    spec.usageMessage().description(description);
    return spec;
  }

  /**
   * The standard -h/--help and -V/--version, added last as {@code mixinStandardHelpOptions} adds
   * them (the order picocli lists options in where it does not sort them, as completion does).
   */
  static CommandSpec withStandardHelp(CommandSpec spec) {
    spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).description("Show this help message and exit.")
        .build());
    spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true)
        .description("Print version information and exit.").build());
    return spec;
  }

  /** The exit-code list under its heading, as the usage message ends. */
  static CommandSpec exitCodes(CommandSpec spec, String... codes) {
    spec.usageMessage().exitCodeListHeading(EXIT_HEADING)
        .exitCodeList(CommandLine.Model.UsageMessageSpec.keyValuesMap(codes));
    return spec;
  }

  /**
   * An option that sets {@code set} when given, starting from {@code initial} (what picocli
   * shows as ${DEFAULT-VALUE} and resets to before a parse, as it does for an annotated field).
   */
  static <T> OptionSpec.Builder option(Class<T> type, T initial, Consumer<? super T> set, String... names) {
    Binding<T> b = new Binding<>(initial, set);
    return OptionSpec.builder(names).type(type).initialValue(initial).getter(b).setter(b);
  }

  // Options several commands take: one definition each, so their help cannot drift apart.

  /** -o/--output FORMAT, the report's form (text, json, yaml, markdown). */
  static OptionSpec output(OutputFormat initial, Consumer<OutputFormat> set) {
    return option(OutputFormat.class, initial, set, "-o", "--output").paramLabel("FORMAT").description(OutputFormat.HELP)
        .build();
  }

  /** --timeout SECONDS for each external command the ladder (or a capture) runs. */
  static OptionSpec timeout(int initial, Consumer<Integer> set) {
    return option(int.class, initial, set, "--timeout").paramLabel("SECONDS")
        .description("Timeout for each external command (default ${DEFAULT-VALUE}); all of them together get twice"
            + " that. A command past it is killed with everything it started.").build();
  }

  /** --rules DIR: rule files besides the built-in ones. */
  static OptionSpec rules(Path initial, Consumer<Path> set) {
    return option(Path.class, initial, set, "--rules").paramLabel("DIR")
        .description("Also load every *.yaml rule file in DIR.").build();
  }

  /** --debug: stack traces of internal errors. */
  static OptionSpec debug(Consumer<Boolean> set) {
    return flag(set, "--debug").description("Print stack traces of internal errors.").build();
  }

  /** A flag: no parameter, true when given. */
  static OptionSpec.Builder flag(Consumer<Boolean> set, String... names) {
    return option(boolean.class, false, set, names);
  }

  /** Repeatable values gathered into a list that starts as {@code initial}. */
  static OptionSpec.Builder listOption(List<String> initial, Consumer<List<String>> set, String... names) {
    Binding<List<String>> b = new Binding<>(initial, set);
    return OptionSpec.builder(names).type(List.class).auxiliaryTypes(String.class).initialValue(initial).getter(b).setter(b);
  }

  /** Positional parameters gathered into a list (null when none is given). */
  static PositionalParamSpec.Builder positionals(Consumer<List<String>> set) {
    Binding<List<String>> b = new Binding<>(null, set);
    return PositionalParamSpec.builder().type(List.class).auxiliaryTypes(String.class).initialValue(null).getter(b).setter(b);
  }

  /** One positional parameter. */
  static PositionalParamSpec.Builder positional(String initial, Consumer<String> set) {
    Binding<String> b = new Binding<>(initial, set);
    return PositionalParamSpec.builder().type(String.class).initialValue(initial).getter(b).setter(b);
  }

  /**
   * A field as picocli reads and writes it: the value last set (picocli reads a list back to add
   * to it), passed on to the command.
   */
  private static final class Binding<T> implements CommandLine.Model.IGetter, CommandLine.Model.ISetter {
    private final Consumer<? super T> set;
    private T value;

    Binding(T initial, Consumer<? super T> set) {
      this.value = initial;
      this.set = set;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> R get() {
      return (R) value;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <R> R set(R next) {
      R old = (R) value;
      value = (T) next;
      set.accept(value);
      return old;
    }
  }
}
