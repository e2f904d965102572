package dev.nccltriage.cli;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the tool in-process once per argument list ({@code --next} separates them) in this JVM,
 * output discarded, and prints each exit code: a child JVM of {@link SpunClassesTest}, which
 * reads what the JVM traces while they run.
 */
public final class RunMany {
  private RunMany() {}

  public static void main(String[] args) {
    List<String> one = new ArrayList<>();
    for (int i = 0; i <= args.length; i++) {
      if (i == args.length || args[i].equals("--next")) {
        CliRun r = CliRun.run(one.toArray(String[]::new));
        System.out.println("exit " + r.exitCode() + ": " + String.join(" ", one));
        one.clear();
      } else {
        one.add(args[i]);
      }
    }
  }
}
