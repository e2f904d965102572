package dev.nccltriage.host;

import java.nio.channels.FileChannel;

/**
 * Prints how this process's standard input would be read: "file SIZE POSITION" when it is a
 * regular file, else "stream". Run in a JVM of its own by {@link InputFilesTest}; not a test.
 */
public final class StdinKindProbe {
  private StdinKindProbe() {}

  public static void main(String[] args) throws Exception {
    FileChannel ch = InputFiles.regularFile(InputFiles.stdin());
    System.out.println(ch == null ? "stream" : "file " + ch.size() + " " + ch.position());
  }
}
