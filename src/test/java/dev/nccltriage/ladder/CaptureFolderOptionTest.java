package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nccltriage.cli.CliRun;
import dev.nccltriage.host.TarGz;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code capture -o DIR} writes a folder, so {@code --capture} takes a folder as well as an
 * archive: all three ways of naming one capture give the same report, byte for byte.
 */
class CaptureFolderOptionTest {
  @TempDir Path tmp;

  static java.util.List<String> captures() {
    return Captures.names();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("captures")
  void aFolderGivenToCaptureReplaysAsRootAndAsItsArchive(String capture) throws IOException {
    Path dir = Captures.DIR.resolve(capture);
    Path archive = tmp.resolve(capture + ".tar.gz");
    TarGz.write(dir, archive);
    for (String form : new String[] {"json", "text"}) {
      CliRun root = CliRun.run("check", "--root", dir.toString(), "-o", form);
      CliRun folder = CliRun.run("check", "--capture", dir.toString(), "-o", form);
      CliRun file = CliRun.run("check", "--capture", archive.toString(), "-o", form);
      assertThat(root.stderr()).as("stderr of --root %s", capture).isEmpty();
      assertThat(folder.stderr()).as("stderr of --capture DIR %s", capture).isEmpty();
      assertThat(folder.exitCode()).as(folder.toString()).isEqualTo(root.exitCode());
      assertThat(folder.stdout()).as("--capture DIR vs --root DIR, -o %s", form).isEqualTo(root.stdout());
      assertThat(file.exitCode()).as(file.toString()).isEqualTo(root.exitCode());
      if (form.equals("json")) {
        // the same report, but for inputs[]: it names the capture as given (issue 13)
        assertThat(file.json().at("/inputs/0/source").asText()).isEqualTo(archive.toString());
        assertThat(root.json().at("/inputs/0/source").asText()).isEqualTo(dir.toString());
        ObjectNode a = (ObjectNode) file.json();
        ObjectNode b = (ObjectNode) root.json();
        a.remove("inputs");
        b.remove("inputs");
        assertThat(a).as("--capture FILE vs --root DIR, -o json but for inputs").isEqualTo(b);
      } else {
        assertThat(file.stdout()).as("--capture FILE vs --root DIR, -o %s", form).isEqualTo(root.stdout());
      }
    }
  }

  @Test
  void aFolderGivenToCaptureThatIsNotACaptureIsAUsageError() throws IOException {
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    CliRun run = CliRun.run("check", "--capture", empty.toString());
    assertThat(run.exitCode()).isEqualTo(2);
    assertThat(run.stdout()).isEmpty();
    assertThat(run.stderr().strip())
        .isEqualTo("nccl-triage: " + empty + ": not a capture folder: no proc/ or sys/ in it"
            + " (a capture is what 'nccl-triage capture -o DIR' writes)");
  }
}
