package dev.nccltriage.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The two launchers (the bundle's and the checkout's) in their layouts under a test's folder, running the test build. */
final class Launchers {
  private Launchers() {}

  /** The bundle's launcher in a bundle layout: the test JVM as its runtime, the test class path as its jars. */
  static Path bundle(Path tmp) throws IOException {
    Path root = tmp.resolve("bundle");
    if (Files.exists(root.resolve("bin/nccl-triage"))) {
      return root.resolve("bin/nccl-triage");
    }
    Files.createDirectories(root.resolve("bin"));
    Files.createDirectories(root.resolve("runtime/bin"));
    Files.createSymbolicLink(root.resolve("runtime/bin/java"), Path.of(System.getProperty("java.home"), "bin", "java"));
    String script = Files.readString(CliRun.REPO.resolve("dist/bundle/nccl-triage"), StandardCharsets.UTF_8)
        .replace("@CLASSPATH@", System.getProperty("java.class.path"))
        .replace("@QUIET_CDS@", "")
        .replace("@NATIVE_ACCESS@", "");
    Path launcher = root.resolve("bin/nccl-triage");
    Files.writeString(launcher, script, StandardCharsets.UTF_8);
    return launcher;
  }

  /**
   * The checkout's launcher in a checkout layout: target/nccl-triage.jar is a jar of only a
   * manifest whose Class-Path is the test class path (the tests run before the real jar is built).
   */
  static Path checkout(Path tmp) throws IOException {
    Path root = tmp.resolve("checkout");
    if (Files.exists(root.resolve("dist/bin/nccl-triage"))) {
      return root.resolve("dist/bin/nccl-triage");
    }
    Files.createDirectories(root.resolve("dist/bin"));
    Files.createDirectories(root.resolve("target"));
    Path launcher = root.resolve("dist/bin/nccl-triage");
    Files.copy(CliRun.REPO.resolve("dist/bin/nccl-triage"), launcher);
    Manifest m = new Manifest();
    m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, Main.class.getName());
    m.getMainAttributes().put(Attributes.Name.CLASS_PATH, Stream.of(System.getProperty("java.class.path").split(":"))
        .map(p -> Path.of(p).toAbsolutePath().toUri().toString()).collect(Collectors.joining(" ")));
    try (OutputStream out = Files.newOutputStream(root.resolve("target/nccl-triage.jar"));
        JarOutputStream jar = new JarOutputStream(out, m)) {
      jar.flush();
    }
    return launcher;
  }

}
