package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * picocli's classes are the ones the build compiles from its sources (pom.xml, the compiler's
 * picocli execution), not its released Java 5 class files: a start-up archive links only class
 * files of version 50 and later, so with the released ones every run verified and linked picocli
 * again (10-16 ms of a command's start-up, 40 ms in the bundle).
 */
class PicocliClassesTest {
  @Test
  void picocliIsJava17ClassFilesFromTheBuild() throws IOException {
    for (Class<?> c : new Class<?>[] {CommandLine.class, CommandLine.Model.CommandSpec.class, picocli.AutoComplete.class}) {
      String resource = "/" + c.getName().replace('.', '/') + ".class";
      try (InputStream in = c.getResourceAsStream(resource)) {
        assertThat(in).as(resource).isNotNull();
        byte[] head = in.readNBytes(8);
        int major = ((head[6] & 0xff) << 8) | (head[7] & 0xff);
        assertThat(major).as("class file version of %s (61: Java 17)", resource).isEqualTo(61);
      }
      // the build's output folder, not picocli's jar, which stays on the compile class path
      assertThat(c.getProtectionDomain().getCodeSource().getLocation().getPath()).as(c.getName())
          .doesNotContain("picocli-");
    }
  }
}
