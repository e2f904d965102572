package dev.nccltriage.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * The git commit and build date of this jar, for {@code --version -o json}. Written at build time
 * (process-classes, see pom.xml) into the classes as {@link #RESOURCE}; read at run time. A build
 * outside a git checkout, or without git, has no commit: null, never a guess.
 *
 * @param commit the full hash of HEAD when built; null when unknown
 * @param buildDate when it was built, ISO-8601 UTC to the second (SOURCE_DATE_EPOCH when set, for
 *     reproducible builds); null when unknown (classes not built by Maven)
 */
public record BuildInfo(String commit, String buildDate) {
  static final String RESOURCE = "/dev/nccltriage/build.properties";
  private static final Pattern HASH = Pattern.compile("[0-9a-f]{40,64}");

  /** Build step: {@code BuildInfo CLASSES_DIR SOURCE_DIR} writes CLASSES_DIR/dev/nccltriage/build.properties. */
  public static void main(String[] args) throws IOException {
    write(Path.of(args[0]), Path.of(args[1]), System.getenv());
  }

  static void write(Path classes, Path sources, Map<String, String> env) throws IOException {
    BuildInfo info = new BuildInfo(commit(sources), date(env));
    Properties p = new Properties();
    if (info.commit() != null) {
      p.setProperty("commit", info.commit());
    }
    p.setProperty("buildDate", info.buildDate());
    Path file = classes.resolve(RESOURCE.substring(1));
    Files.createDirectories(file.getParent());
    try (OutputStream out = Files.newOutputStream(file)) {
      // store() writes a date comment, which would make the same commit's jars differ
      StringBuilder b = new StringBuilder();
      for (String k : p.stringPropertyNames().stream().sorted().toList()) {
        b.append(k).append('=').append(p.getProperty(k)).append('\n');
      }
      out.write(b.toString().getBytes(StandardCharsets.ISO_8859_1));
    }
  }

  /** HEAD of the checkout at {@code dir}, or null: not a checkout, no git, or git says nothing useful. */
  static String commit(Path dir) {
    try {
      Process p = new ProcessBuilder("git", "-C", dir.toString(), "rev-parse", "--verify", "--quiet", "HEAD")
          .redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
          .start();
      // waited for first: a git that hangs (a lock, a prompt) must not hang the build; its output is one line
      if (!p.waitFor(20, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      String out;
      try (InputStream in = p.getInputStream()) {
        out = new String(in.readNBytes(4096), StandardCharsets.UTF_8).strip();
      }
      return p.exitValue() == 0 && HASH.matcher(out).matches() ? out : null;
    } catch (IOException e) {
      return null; // no git on this machine
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private static String date(Map<String, String> env) {
    String epoch = env.get("SOURCE_DATE_EPOCH");
    Instant when = Instant.now();
    if (epoch != null && epoch.matches("\\d{1,12}")) {
      when = Instant.ofEpochSecond(Long.parseLong(epoch));
    }
    return when.truncatedTo(ChronoUnit.SECONDS).toString();
  }

  /** What the running jar says; nulls when it was not built by Maven. */
  static BuildInfo read() {
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return new BuildInfo(null, null);
      }
      Properties p = new Properties();
      p.load(in);
      return new BuildInfo(blankToNull(p.getProperty("commit")), blankToNull(p.getProperty("buildDate")));
    } catch (IOException e) {
      return new BuildInfo(null, null);
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s.strip();
  }
}
