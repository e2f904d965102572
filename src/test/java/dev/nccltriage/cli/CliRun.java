package dev.nccltriage.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The result of running the tool in-process through {@link NcclTriage#mainWithoutExit}, with the
 * repository root as working directory, so tests see exactly what a user would.
 */
public record CliRun(int exitCode, byte[] stdoutBytes, String stderr) {
  /** The repository root: Maven runs tests with the project directory as working directory. */
  public static final Path REPO = Path.of("").toAbsolutePath();

  /** A plain environment: 100 columns, no terminal, hence no colour. */
  public static final Map<String, String> ENV = Map.of("COLUMNS", "100");

  private static final ObjectMapper JSON = new ObjectMapper();

  public static CliRun run(String... args) {
    return run(new byte[0], ENV, false, args);
  }

  public static CliRun runWithStdin(byte[] stdin, String... args) {
    return run(stdin, ENV, false, args);
  }

  public static CliRun run(
      byte[] stdin, Map<String, String> env, boolean terminal, String... args) {
    return run(new ByteArrayInputStream(stdin), env, terminal, args);
  }

  public static CliRun run(
      InputStream stdin, Map<String, String> env, boolean terminal, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream o = new PrintStream(out, false, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      Context ctx = new Context(stdin, o, e, env, REPO, terminal);
      int code = NcclTriage.mainWithoutExit(ctx, args);
      o.flush();
      return new CliRun(code, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
    }
  }

  public String stdout() {
    return new String(stdoutBytes, StandardCharsets.UTF_8);
  }

  public JsonNode json() {
    try {
      return JSON.readTree(stdoutBytes);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "stdout is not JSON:\n" + stdout() + "\nstderr:\n" + stderr, e);
    }
  }

  /**
   * The verdict with every evidence {@code source} replaced, to compare runs over differently named
   * inputs.
   */
  public JsonNode verdictIgnoringSources() {
    JsonNode v = json().get("verdict").deepCopy();
    blankSources(v);
    return v;
  }

  private static void blankSources(JsonNode n) {
    if (n instanceof ObjectNode o && o.has("source") && o.has("line") && o.has("text")) {
      o.put("source", "<input>");
    }
    n.forEach(CliRun::blankSources);
  }

  /** Exit code the report's verdict status maps to (DESIGN.md). */
  public static int exitCodeFor(String status) {
    return switch (status) {
      case "healthy" -> 0;
      case "problem" -> 1;
      case "inconclusive" -> 3;
      default -> throw new IllegalArgumentException("unknown verdict status " + status);
    };
  }

  @Override
  public String toString() {
    return "exit " + exitCode + "\n--- stderr ---\n" + stderr + "--- stdout ---\n" + stdout();
  }
}
