package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nccltriage.cli.CliRun;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12 item 8: the healthy H100 capture, with the training image's dynamic-loader view
 * recorded. Without libibverbs.so.1, or without the mlx5 provider for the mlx5_* HCAs, NCCL
 * falls back to sockets silently: step 2 fails and the verdict names it. With both present it
 * stays healthy, and with nothing recorded (the capture as it is) nothing is claimed absent.
 */
class VerbsStackTest {
  private static final String HEADER = "3 libs found in cache `/etc/ld.so.cache'\n";
  private static final String LIBC = "\tlibc.so.6 (libc6,x86-64, OS ABI: Linux 3.2.0) => /lib/x86_64-linux-gnu/libc.so.6\n";
  private static final String VERBS = "\tlibibverbs.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libibverbs.so.1\n";
  private static final String MLX5 = "\tlibmlx5.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libmlx5.so.1\n";
  private static final String EFA = "\tlibefa.so.1 (libc6,x86-64) => /lib/x86_64-linux-gnu/libefa.so.1\n";

  @TempDir Path dir;

  private Path capture() throws IOException {
    Path root = dir.resolve("cap");
    Captures.copyTree(Captures.DIR.resolve("healthy-8hca-gdr-net1"), root);
    return root;
  }

  private static Path ldconfig(Path root, String stdout) throws IOException {
    Path cmd = Files.createDirectories(root.resolve(".nccl-triage/commands/ldconfig_-p"));
    Files.writeString(cmd.resolve("argv"), "ldconfig\n-p\n");
    Files.writeString(cmd.resolve("stdout"), stdout);
    Files.writeString(cmd.resolve("stderr"), "");
    Files.writeString(cmd.resolve("exit"), "0\n");
    return root;
  }

  private static JsonNode problem(Path root, String why) {
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(1);
    JsonNode doc = run.json();
    assertThat(Captures.ladderStatuses(doc)).contains("2:fail");
    assertThat(doc.get("verdict").get("layer").asText()).isEqualTo("node-driver");
    assertThat(doc.get("verdict").toString()).contains(why);
    return doc;
  }

  @Test
  void aCacheWithoutLibibverbsIsAProblem() throws IOException {
    Path root = ldconfig(capture(), HEADER + LIBC + MLX5);
    JsonNode doc = problem(root, "hold libibverbs.so.1: NCCL cannot load the IB transport and falls back to sockets");
    assertThat(Captures.step(doc, 2).toString()).contains("libibverbs.so.1: absent").contains("libibverbs.so.1 not found");

    CliRun text = CliRun.run("check", "--root", root.toString());
    assertThat(text.stdout()).contains("2. fail  HCAs and ports").contains("libibverbs.so.1: absent");
    // the claim comes first and the search after it: a display cuts the end of a long line, and
    // a source naming every folder read left the claims looking alike
    assertThat(text.stdout()).contains("ldconfig -p  libibverbs.so.1 not found; searched the loader cache");
  }

  @Test
  void libibverbsWithoutTheMlx5ProviderIsAProblem() throws IOException {
    Path root = ldconfig(capture(), HEADER + LIBC + VERBS + EFA);
    JsonNode doc = problem(root, "no verbs provider for the Pod's HCAs (mlx5 missing; found: efa)");
    assertThat(doc.toString()).contains("no mlx5 provider");
  }

  @Test
  void aProviderPluginInALibraryFolderCounts() throws IOException {
    Path root = ldconfig(capture(), HEADER + LIBC + VERBS);
    Path plugins = Files.createDirectories(root.resolve("usr/lib/x86_64-linux-gnu/libibverbs"));
    Files.writeString(plugins.resolve("libmlx5-rdmav34.so"), "");
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stdout()).isZero();
    assertThat(Captures.ladderStatuses(run.json())).contains("2:pass");
    assertThat(Captures.step(run.json(), 2).toString()).contains("verbs providers: mlx5");
  }

  @Test
  void libraryFoldersAloneDecideWhenLdconfigIsMissing() throws IOException {
    Path root = capture();
    Files.createDirectories(root.resolve("usr/lib64"));
    problem(root, "hold libibverbs.so.1");
    Files.writeString(root.resolve("usr/lib64/libibverbs.so.1"), "");
    Files.writeString(root.resolve("usr/lib64/libmlx5.so.1"), "");
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stdout()).isZero();
    assertThat(Captures.step(run.json(), 2).toString()).contains("libibverbs.so.1: /usr/lib64/libibverbs.so.1");
  }

  @Test
  void libibverbsAndItsProviderPresentStaysHealthy() throws IOException {
    Path root = ldconfig(capture(), HEADER + LIBC + VERBS + MLX5);
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stdout()).isZero();
    JsonNode doc = run.json();
    assertThat(Captures.ladderStatuses(doc)).contains("2:pass");
    assertThat(Captures.step(doc, 2).toString())
        .contains("libibverbs.so.1: /lib/x86_64-linux-gnu/libibverbs.so.1, verbs providers: mlx5");
  }

  @Test
  void nothingRecordedIsUnknownNotAbsent() throws IOException {
    Path root = capture();
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stdout()).isZero();
    assertThat(Captures.ladderStatuses(run.json())).contains("2:pass");
    assertThat(Captures.step(run.json(), 2).toString()).contains("libibverbs.so.1: unknown");
  }

  @Test
  void anUnreadableCacheListingIsUnknownToo() throws IOException {
    Path root = ldconfig(capture(), "ldconfig: Can't open cache file /etc/ld.so.cache\n: No such file or directory\n");
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stdout()).isZero();
  }

  @Test
  void aCondaStackOnTheRecordedLdLibraryPathIsFoundOnReplay() throws IOException {
    Path root = ldconfig(capture(), HEADER + LIBC);
    Path conda = Files.createDirectories(root.resolve("opt/conda/lib/libibverbs"));
    Files.writeString(conda.getParent().resolve("libibverbs.so.1"), "");
    Files.writeString(conda.resolve("libmlx5-rdmav34.so"), "");
    problem(root, "hold libibverbs.so.1");

    Path env = root.resolve(".nccl-triage/env");
    Files.writeString(env, Files.readString(env) + "LD_LIBRARY_PATH=/opt/conda/lib\n");
    CliRun run = CliRun.run("check", "--root", root.toString(), "-o", "json");
    assertThat(run.exitCode()).as(run.stdout()).isZero();
    assertThat(Captures.step(run.json(), 2).toString()).contains("libibverbs.so.1: /opt/conda/lib/libibverbs.so.1");
    // it is no NCCL variable: the env facts do not show it
    assertThat(run.json().get("pod").get("env").has("LD_LIBRARY_PATH")).isFalse();
  }

  @Test
  void captureRecordsTheProcessLdLibraryPath() throws IOException {
    java.util.Map<String, String> env = new java.util.HashMap<>(System.getenv());
    env.put("COLUMNS", "100");
    env.put("LD_LIBRARY_PATH", "/opt/conda/lib:/usr/local/cuda/lib64");
    Path out = dir.resolve("live");
    CliRun run = Captures.run(env, "capture", "-o", out.toString());
    assertThat(run.exitCode()).as(run.toString()).isZero();
    assertThat(Files.readString(out.resolve(".nccl-triage/env")))
        .contains("LD_LIBRARY_PATH=/opt/conda/lib:/usr/local/cuda/lib64\n");
    assertThat(Captures.run(env, "check", "--root", out.toString(), "-o", "json").json().at("/pod/verbs/libraryPath").asText())
        .isEqualTo("/opt/conda/lib:/usr/local/cuda/lib64");
  }
}
