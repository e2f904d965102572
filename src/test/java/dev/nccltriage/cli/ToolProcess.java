package dev.nccltriage.cli;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The real tool in its own JVM ({@link Main}, with the test classpath), for what an in-process
 * run cannot show: signals, the shutdown hook, the exit code of the process, write errors on the
 * real standard output.
 */
public final class ToolProcess {
  public static final String SYSTEM_PATH =
      Optional.ofNullable(System.getenv("PATH")).orElse("/usr/local/bin:/usr/bin:/bin");

  private ToolProcess() {}

  /** The java command line for the tool with {@code args}, temporary files under {@code tmpdir}. */
  public static List<String> command(Path tmpdir, String... args) {
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", "-Xshare:auto",
        "-Djava.io.tmpdir=" + tmpdir,
        "-cp", System.getProperty("java.class.path"),
        Main.class.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** A builder in the repository root with exactly {@code env} (plus COLUMNS=100). */
  public static ProcessBuilder builder(List<String> cmd, Map<String, String> env) {
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(CliRun.REPO.toFile());
    pb.environment().clear();
    pb.environment().put("COLUMNS", "100");
    pb.environment().putAll(env);
    pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
    return pb;
  }

  /** Waits (at most a minute: a hang fails the test, never the build) and gives the exit code. */
  public static int await(Process p) throws InterruptedException {
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new AssertionError("the tool did not end within 60 s");
    }
    return p.exitValue();
  }

  /** Writes an executable {@code /bin/sh} script {@code dir/name}. */
  public static Path script(Path dir, String name, String body) throws IOException {
    Files.createDirectories(dir);
    Path script = dir.resolve(name);
    Files.writeString(script, "#!/bin/sh\n" + body, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }

  /** Live, non-zombie processes whose command line contains {@code marker}. */
  public static List<String> processesMatching(String marker) {
    List<String> found = new ArrayList<>();
    try (var dirs = Files.list(Path.of("/proc"))) {
      for (Path d : (Iterable<Path>) dirs::iterator) {
        String name = d.getFileName().toString();
        if (!name.chars().allMatch(Character::isDigit)) {
          continue;
        }
        try {
          String cmdline = new String(Files.readAllBytes(d.resolve("cmdline")), StandardCharsets.UTF_8)
              .replace('\0', ' ');
          String stat = Files.readString(d.resolve("stat"), StandardCharsets.UTF_8);
          char state = stat.charAt(stat.lastIndexOf(')') + 2);
          if (cmdline.contains(marker) && state != 'Z' && state != 'X') {
            found.add(name + " " + cmdline.strip());
          }
        } catch (IOException | RuntimeException e) {
          // the process ended while we looked
        }
      }
    } catch (IOException e) {
      throw new AssertionError("cannot list /proc", e);
    }
    return found;
  }

  /**
   * The processes matching {@code marker} once SIGKILL has had time to land (the tool waits for
   * its kills; this only absorbs the kernel's latency); any found are killed so they do not
   * outlive the test.
   */
  public static List<String> leftovers(String marker) throws InterruptedException {
    long end = System.nanoTime() + 1_000_000_000L;
    List<String> left = processesMatching(marker);
    while (!left.isEmpty() && System.nanoTime() < end) {
      Thread.sleep(50);
      left = processesMatching(marker);
    }
    for (String l : left) {
      ProcessHandle.of(Long.parseLong(l.substring(0, l.indexOf(' ')))).ifPresent(ProcessHandle::destroyForcibly);
    }
    return left;
  }
}
