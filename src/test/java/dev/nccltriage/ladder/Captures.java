package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/** Shared helpers of the ladder tests: the sample captures, the report schema, tree copies. */
public final class Captures {
  static final Path DIR = CliRun.REPO.resolve("samples/captures");
  static final Path GOLDEN = DIR.resolve("golden");
  static final ObjectMapper JSON = new ObjectMapper();

  private static JsonSchema schema;

  private Captures() {}

  /** Every capture folder (one with a {@code .nccl-triage/} inside), by name, sorted. */
  public static List<String> names() {
    try (Stream<Path> s = Files.list(DIR)) {
      List<String> names =
          s.filter(p -> Files.isDirectory(p.resolve(".nccl-triage")))
              .map(p -> p.getFileName().toString())
              .sorted()
              .toList();
      assertThat(names).as("captures under %s", DIR).isNotEmpty();
      return names;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs the tool in-process, at 100 columns, with the given extra environment. */
  static CliRun run(Map<String, String> env, String... args) {
    return CliRun.run(new byte[0], env, false, args);
  }

  /** The report schema's errors for a check/preflight document (empty when it is valid). */
  public static Set<ValidationMessage> schemaErrors(JsonNode doc) {
    return strictSchemaErrors(doc);
  }

  static synchronized Set<ValidationMessage> strictSchemaErrors(JsonNode doc) {
    if (schema == null) {
      try (InputStream in = Captures.class.getResourceAsStream("/schema/report-v1.schema.json")) {
        assertThat(in).as("report schema on the classpath").isNotNull();
        schema =
            JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                .getSchema(JSON.readTree(in));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return schema.validate(doc);
  }

  /** "step:status" for every ladder step of a JSON report. */
  static List<String> ladderStatuses(JsonNode report) {
    List<String> out = new ArrayList<>();
    report.get("ladder").forEach(s -> out.add(s.get("step").asInt() + ":" + s.get("status").asText()));
    return out;
  }

  /** The ladder step with this number. */
  static JsonNode step(JsonNode report, int n) {
    for (JsonNode s : report.get("ladder")) {
      if (s.get("step").asInt() == n) {
        return s;
      }
    }
    throw new AssertionError("no ladder step " + n + " in " + report);
  }

  /** Copies a tree (files, folders, symbolic links as links); folders 0755, files 0644. */
  public static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> s = Files.walk(from)) {
      for (Path p : (Iterable<Path>) s::iterator) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isSymbolicLink(p)) {
          Files.createSymbolicLink(t, Files.readSymbolicLink(p));
        } else if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
          Files.createDirectories(t);
          Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rwxr-xr-x"));
        } else {
          Files.copy(p, t, StandardCopyOption.REPLACE_EXISTING);
          Files.setPosixFilePermissions(t, PosixFilePermissions.fromString("rw-r--r--"));
        }
      }
    }
  }

  public static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
