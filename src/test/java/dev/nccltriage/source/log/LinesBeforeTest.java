package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The whole lines before a part of a file or a stream's chunk, that its parser starts from. */
class LinesBeforeTest {
  @TempDir Path dir;

  private String before(String file, long origin, long from) throws Exception {
    Path p = Files.writeString(dir.resolve("log"), file);
    try (FileChannel ch = FileChannel.open(p)) {
      return new String(LinesBefore.ofPart(ch, origin, from), StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  void theLinesBeforeAPartAndTheLineThatRunsIntoIt() throws Exception {
    String file = "one\ntwo\nthree\nfour\n";
    assertThat(before(file, 0, 8)).as("at a line's start").isEqualTo("one\ntwo\n");
    assertThat(before(file, 0, 10)).as("inside 'three', which the part before reads").isEqualTo("one\ntwo\nthree\n");
    assertThat(before(file, 4, 10)).as("from stdin's position on").isEqualTo("two\nthree\n");
    assertThat(before(file.substring(0, 13), 0, 10)).as("a last line without its newline").isEqualTo("one\ntwo\n");
  }

  @Test
  void onlyWholeLinesWithinTheWindow() throws Exception {
    String longLine = "x".repeat(LinesBefore.WINDOW + 100);
    String file = longLine + "\nlast\n" + "next\n";
    int from = longLine.length() + "\nlast\n".length();
    assertThat(before(file, 0, from)).as("the long line's start is out of the window").isEqualTo("last\n");
    String runsOn = "head\n" + "y".repeat(2 * LinesBefore.WINDOW) + "\n";
    assertThat(before(runsOn, 0, 10)).as("a line into the part longer than the window").isEqualTo("head\n");
  }

  @Test
  void aChunksLastLines() {
    byte[] b = "a\nbb\nccc\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThat(LinesBefore.ofChunk(b, b.length)).asString().isEqualTo("a\nbb\nccc\n");
    byte[] big = ("z".repeat(LinesBefore.WINDOW) + "\nend\n").getBytes(StandardCharsets.ISO_8859_1);
    assertThat(LinesBefore.ofChunk(big, big.length)).asString().isEqualTo("end\n");
    assertThat(LinesBefore.ofChunk(new byte[0], 0)).isEmpty();
  }

  @Test
  void theLastRecordsInOrder() {
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 40; i++) {
      lines.append("h:1:1 [0] NCCL INFO line ").append(i).append('\n').append("other ").append(i).append('\n');
    }
    lines.append("h:1:1 [0] INFO before 2.3\n").append("tail\n");
    String kept = new String(LinesBefore.records(lines.toString().getBytes(StandardCharsets.ISO_8859_1)),
        StandardCharsets.ISO_8859_1);
    assertThat(kept.split("\n")).hasSize(LinesBefore.RECORDS)
        .startsWith("h:1:1 [0] NCCL INFO line 25").endsWith("h:1:1 [0] INFO before 2.3");
  }
}
