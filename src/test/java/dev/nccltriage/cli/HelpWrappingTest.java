package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Help text wraps between words only: a file name, a resource name or a version split at a dot or
 * a slash ({@code .tar.} / {@code gz}, {@code nvidia.} / {@code com/hostdev}) cannot be copied.
 * Every command's help, at every width from picocli's minimum to the widest, is searched for a
 * line that ends inside a word that the next line finishes.
 */
class HelpWrappingTest {
  private static final Pattern TOKEN = Pattern.compile("\\S+");

  private static Map<String, CommandLine> commands() {
    Context ctx = new Context(new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(new ByteArrayOutputStream()), Map.of(), CliRun.REPO, false);
    CommandLine root = NcclTriage.commandLine(new NcclTriage.Factory(ctx));
    Map<String, CommandLine> all = new java.util.LinkedHashMap<>();
    all.put("nccl-triage", root);
    all.putAll(root.getSubcommands());
    return all;
  }

  /** Words with a dot, slash or other joint inside, as the help text holds them unwrapped. */
  private static Set<String> joinedWords(CommandLine cl) {
    HelpWrap.apply(cl, 10_000);
    Set<String> out = new LinkedHashSet<>();
    Matcher m = TOKEN.matcher(cl.getUsageMessage(CommandLine.Help.Ansi.OFF));
    while (m.find()) {
      if (m.group().matches(".*[A-Za-z0-9][./:=,|-][A-Za-z0-9].*")) {
        out.add(m.group());
      }
    }
    return out;
  }

  static List<String> splitWords(CommandLine cl, int width, Set<String> words) {
    HelpWrap.apply(cl, width);
    String[] lines = cl.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\n");
    List<String> out = new ArrayList<>();
    for (int i = 0; i + 1 < lines.length; i++) {
      String a = lines[i].stripTrailing();
      String b = lines[i + 1].strip();
      if (a.isEmpty() || b.isEmpty() || a.endsWith(" ")) {
        continue;
      }
      String tail = a.substring(a.lastIndexOf(' ') + 1);
      String head = b.split(" ", 2)[0];
      String joined = tail + head;
      if (words.stream().anyMatch(w -> w.contains(joined)) && !words.contains(tail)) {
        out.add("width " + width + ": '" + tail + "' | '" + head + "'");
      }
    }
    return out;
  }

  @Test
  void noHelpLineBreaksInsideAWord() {
    List<String> broken = new ArrayList<>();
    commands().forEach((name, cl) -> {
      Set<String> words = joinedWords(cl);
      for (int width = 40; width <= 200; width++) {
        splitWords(cl, width, words).forEach(s -> broken.add(name + " " + s));
      }
    });
    assertThat(broken).isEmpty();
  }

  @Test
  void linesFitTheWidthUnlessOneWordIsLonger() {
    commands().forEach((name, cl) -> {
      for (int width : new int[] {55, 80, 120}) {
        HelpWrap.apply(cl, width);
        for (String line : cl.getUsageMessage(CommandLine.Help.Ansi.OFF).split("\n")) {
          if (line.length() > width) {
            assertThat(line.strip()).as("%s at %d: %s", name, width, line).doesNotContain(" ");
          }
        }
      }
    });
  }

  @Test
  void continuationLinesKeepTheDescriptionColumn() {
    String row = "  -o, --output=FORMAT   Output format: text, json or markdown, chosen for the reader of the report.";
    assertThat(HelpWrap.wrap(row, 62)).isEqualTo(
        "  -o, --output=FORMAT   Output format: text, json or markdown,\n"
        + "                        chosen for the reader of the report.");
    assertThat(HelpWrap.wrap("Usage: nccl-triage check [-hV] [--log=FILE] [--capture=FILE.tar.gz|DIR] [--timeout=S]", 70))
        .isEqualTo("Usage: nccl-triage check [-hV] [--log=FILE]\n"
            + "                         [--capture=FILE.tar.gz|DIR] [--timeout=S]");
  }

  /** dist/bundle/test-bundle.sh reads the command list this way to check a man page per command. */
  @Test
  void theCommandListStartsALineOnlyWithACommand() {
    String help = CliRun.run("--help").stdout();
    java.util.List<String> starts = new java.util.ArrayList<>();
    boolean on = false;
    for (String line : help.split("\n")) {
      if (line.equals("Commands:")) {
        on = true;
      } else if (on && line.isEmpty()) {
        break;
      } else if (on && line.matches("  [a-z].*")) {
        starts.add(line.strip().split(" ")[0]);
      }
    }
    assertThat(starts).containsExactlyElementsOf(NcclTriage.SUBCOMMANDS.keySet());
  }
}
