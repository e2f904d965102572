package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.ladder.Captures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No command, on any sample, makes the JVM generate classes that a start-up archive cannot hold,
 * each of which costs every run that reaches it:
 *
 * <ul>
 *   <li>the equals, hashCode or toString that javac generates for a record: each links
 *       java.lang.runtime.ObjectMethods on its first call (10-45 ms of a cold JVM: spun method
 *       handles, classes outside the archive). A record that is a map key or a list element that
 *       is removed by value writes its own (see Evidence#equals) or is not used that way;
 *   <li>a proxy class: an annotation read at run time is a proxy instance, and its type's proxy
 *       class is generated on the first read (picocli's annotations were 35 ms of every command's
 *       start-up; the commands build their models in code, {@link Specs}).
 * </ul>
 *
 * Checked in one child JVM that traces every call site it links and every class it loads while it
 * runs the commands.
 */
class SpunClassesTest {
  @Test
  void noSampleRunLinksARecordsGeneratedMethodsOrMakesAProxy() throws IOException, InterruptedException {
    List<List<String>> runs = new ArrayList<>();
    for (String log : files("samples/logs", ".log")) {
      runs.add(List.of("log", "-o", "json", log));
      runs.add(List.of("log", log));
    }
    for (String corpusCase : dirs("samples/corpus")) {
      if (Files.isRegularFile(CliRun.REPO.resolve(corpusCase + "/log.txt"))) {
        runs.add(List.of("log", "-o", "json", corpusCase + "/log.txt"));
      }
    }
    for (String out : files("samples/nccl-tests", ".out")) {
      runs.add(List.of("bw", "-o", "json", out));
    }
    for (String name : Captures.names()) {
      String capture = "samples/captures/" + name;
      runs.add(List.of("check", "--root", capture, "-o", "json"));
      runs.add(List.of("check", "--root", capture));
      runs.add(List.of("preflight", "--root", capture));
    }
    runs.add(List.of("lint", "samples/k8s"));
    runs.add(List.of("lint", "-o", "json", "samples/k8s"));
    List<String> args = new ArrayList<>();
    for (List<String> r : runs) {
      if (!args.isEmpty()) {
        args.add("--next");
      }
      args.addAll(r);
    }
    List<String> cmd = new ArrayList<>(List.of(
        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
        "-Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true", "-Xlog:class+load=info:stdout",
        "-cp", System.getProperty("java.class.path"), RunMany.class.getName()));
    cmd.addAll(args);
    Path out = Files.createTempFile("record-methods", ".txt");
    try {
      Process p = ToolProcess.builder(cmd, CliRun.ENV).redirectErrorStream(true)
          .redirectOutput(out.toFile()).start();
      assertThat(ToolProcess.await(p)).isZero();
      List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
      assertThat(lines.stream().filter(l -> l.startsWith("exit ")).count()).isEqualTo(runs.size());
      assertThat(lines).as("the trace is on (else the test shows nothing)")
          .anyMatch(l -> l.contains("linkCallSite") && l.contains("LambdaMetafactory"));
      assertThat(lines).filteredOn(l -> l.contains("java.lang.runtime.ObjectMethods")).isEmpty();
      assertThat(lines).as("the class-load log is on").anyMatch(l -> l.contains("dev.nccltriage.cli.Specs "));
      assertThat(lines).filteredOn(l -> l.contains("__dynamic_proxy__")).isEmpty();
    } finally {
      Files.deleteIfExists(out);
    }
  }

  private static List<String> files(String dir, String suffix) throws IOException {
    try (Stream<Path> s = Files.list(CliRun.REPO.resolve(dir))) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix))
          .map(p -> dir + "/" + p.getFileName()).sorted().toList();
    }
  }

  private static List<String> dirs(String dir) throws IOException {
    try (Stream<Path> s = Files.list(CliRun.REPO.resolve(dir))) {
      return s.filter(p -> Files.isDirectory(p) && !p.getFileName().toString().equals("golden"))
          .map(p -> dir + "/" + p.getFileName()).sorted().toList();
    }
  }
}
