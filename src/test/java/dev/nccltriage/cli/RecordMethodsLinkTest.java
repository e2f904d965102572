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
 * No command, on any sample, calls the equals, hashCode or toString that javac generates for a
 * record: each links java.lang.runtime.ObjectMethods on its first call, which costs a cold JVM
 * 10-45 ms (spun method handles, classes outside the start-up archive), on every run that reaches
 * it. A record that is a map key or a list element that is removed by value writes its own (see
 * Evidence#equals) or is not used that way. Checked in one child JVM that traces every call site
 * it links while it runs the commands.
 */
class RecordMethodsLinkTest {
  @Test
  void noSampleRunLinksARecordsGeneratedMethods() throws IOException, InterruptedException {
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
        "-Djava.lang.invoke.MethodHandle.TRACE_METHOD_LINKAGE=true",
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
