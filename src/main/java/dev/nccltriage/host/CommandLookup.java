package dev.nccltriage.host;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds the program a wrapped command names, as a shell does before it execs it: a name with a
 * slash is a path (relative to the working folder), any other name is looked up in PATH (an empty
 * entry is the working folder). A failure carries the shell's status: 127 when nothing is there,
 * 126 when something is there that cannot be run (a folder, a file without execute permission).
 */
public final class CommandLookup {
  /** The search path when PATH is unset, as glibc's execvp uses. */
  static final String DEFAULT_PATH = "/bin:/usr/bin";

  private CommandLookup() {}

  /** The program found ({@code status} 0), or the shell's status and why not ({@code program} null). */
  public record Result(Path program, int status, String why) {
    public boolean found() {
      return program != null;
    }

    static Result ok(Path program) {
      return new Result(program, 0, null);
    }

    static Result notFound(String why) {
      return new Result(null, 127, why);
    }

    static Result cannotRun(String why) {
      return new Result(null, 126, why);
    }
  }

  public static Result find(String name, String path, Path cwd) {
    if (name.isEmpty()) {
      return Result.notFound("the command name is empty");
    }
    if (name.contains("/")) {
      Path p = cwd.resolve(name);
      if (!Files.exists(p)) {
        return Result.notFound(name + ": no such file");
      }
      if (Files.isDirectory(p)) {
        return Result.cannotRun(name + ": is a folder");
      }
      return Files.isExecutable(p) ? Result.ok(p) : Result.cannotRun(name + ": not executable (permission denied)");
    }
    String search = path == null ? DEFAULT_PATH : path;
    Path denied = null;
    for (String dir : search.split(File.pathSeparator, -1)) {
      Path p = dir.isEmpty() ? cwd.resolve(name) : cwd.resolve(dir).resolve(name);
      if (Files.isRegularFile(p)) {
        if (Files.isExecutable(p)) {
          return Result.ok(p);
        }
        denied = denied == null ? p : denied;
      }
    }
    if (denied != null) {
      // bash's answer too: a match that cannot be run is reported rather than "not found"
      return Result.cannotRun(name + ": " + denied + " is not executable (permission denied)");
    }
    return Result.notFound(name + ": not found in PATH (" + search + ")");
  }
}
