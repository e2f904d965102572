package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.ToolProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wrapped command is looked up as a shell would before exec, with a shell's 126/127. */
class CommandLookupTest {
  @TempDir Path tmp;

  private Path plainFile(Path dir, String name) throws IOException {
    Files.createDirectories(dir);
    Path f = dir.resolve(name);
    Files.writeString(f, "#!/bin/sh\n");
    Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rw-r--r--"));
    return f;
  }

  @Test
  void aNameIsLookedUpInPathInOrderSkippingFoldersAndFilesThatCannotRun() throws IOException {
    Path a = tmp.resolve("a");
    Path b = tmp.resolve("b");
    Path c = tmp.resolve("c");
    Files.createDirectories(a.resolve("train")); // a folder of that name is no program
    plainFile(b, "train"); // nor a file without execute permission
    Path program = ToolProcess.script(c, "train", "exit 0\n");
    String path = a + ":" + b + ":" + c;

    CommandLookup.Result r = CommandLookup.find("train", path, tmp);

    assertThat(r.found()).as("%s", r).isTrue();
    assertThat(r.program()).isEqualTo(program);
    assertThat(r.status()).isZero();
  }

  @Test
  void aNameNowhereInPathIs127AndSaysWhereItLooked() {
    CommandLookup.Result r = CommandLookup.find("torchrun", tmp + "/x:/nonexistent", tmp);
    assertThat(r.found()).isFalse();
    assertThat(r.status()).isEqualTo(127);
    assertThat(r.why()).isEqualTo("torchrun: not found in PATH (" + tmp + "/x:/nonexistent)");
  }

  @Test
  void aNameFoundOnlyWithoutExecutePermissionIs126() throws IOException {
    Path f = plainFile(tmp.resolve("bin"), "train");
    CommandLookup.Result r = CommandLookup.find("train", tmp.resolve("bin").toString(), tmp);
    assertThat(r.status()).isEqualTo(126);
    assertThat(r.why()).contains(f.toString(), "not executable");
  }

  @Test
  void anEmptyPathEntryIsTheWorkingFolderAndAnUnsetPathIsExecvpsDefault() throws IOException {
    Path program = ToolProcess.script(tmp, "train", "exit 0\n");
    assertThat(CommandLookup.find("train", "/nonexistent:", tmp).program()).isEqualTo(program);
    assertThat(CommandLookup.find("sh", null, tmp).found()).as("sh in /bin:/usr/bin").isTrue();
  }

  @Test
  void aNameWithASlashIsAPathFromTheWorkingFolder() throws IOException {
    Path program = ToolProcess.script(tmp.resolve("w"), "train.sh", "exit 0\n");
    plainFile(tmp.resolve("w"), "data.txt");

    assertThat(CommandLookup.find("w/train.sh", "/nonexistent", tmp).program()).isEqualTo(program);
    assertThat(CommandLookup.find(program.toString(), "", Path.of("/")).program()).isEqualTo(program);

    CommandLookup.Result missing = CommandLookup.find("./w/nope.sh", "", tmp);
    assertThat(missing.status()).isEqualTo(127);
    assertThat(missing.why()).isEqualTo("./w/nope.sh: no such file");
    CommandLookup.Result folder = CommandLookup.find("./w", "", tmp);
    assertThat(folder.status()).isEqualTo(126);
    assertThat(folder.why()).isEqualTo("./w: is a folder");
    CommandLookup.Result plain = CommandLookup.find("w/data.txt", "", tmp);
    assertThat(plain.status()).isEqualTo(126);
    assertThat(plain.why()).isEqualTo("w/data.txt: not executable (permission denied)");
  }

  @Test
  void anEmptyNameIs127() {
    assertThat(CommandLookup.find("", "/bin", tmp).status()).isEqualTo(127);
  }
}
