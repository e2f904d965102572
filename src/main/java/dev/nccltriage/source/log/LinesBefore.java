package dev.nccltriage.source.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;

/**
 * The last whole lines before a unit of an input read in parts (up to {@link #WINDOW} bytes, and
 * the line that runs into the unit, which the unit before it reads), so that a unit's parser can
 * start from what those lines teach ({@link LogParser#continueAfter}) instead of from nothing.
 */
final class LinesBefore {
  /** How far back: a bare message farther than this from NCCL's last line is read as it is. */
  static final int WINDOW = 64 * 1024;

  private LinesBefore() {}

  /**
   * The lines of the file that end in [from - 1 - WINDOW, the end of the line holding byte
   * {@code from - 1}]: whole lines only (the first is dropped unless it starts at {@code origin});
   * the line into the part is left out if it runs on for more than WINDOW bytes past the part's
   * start.
   */
  static byte[] ofPart(FileChannel ch, long origin, long from) throws IOException {
    long start = Math.max(origin, from - 1 - WINDOW);
    ByteBuffer buf = ByteBuffer.allocate((int) (from - 1 - start) + WINDOW);
    while (buf.hasRemaining()) {
      if (ch.read(buf, start + buf.position()) < 0) {
        break;
      }
    }
    byte[] b = buf.array();
    int n = buf.position();
    int at = (int) (from - 1 - start); // the byte before the part, in b
    int end = Bytes.indexOfByte(b, at, n, (byte) '\n');
    end = end >= 0 ? end + 1 : lastLineEnd(b, 0, at);
    int begin = start == origin ? 0 : Bytes.indexOfByte(b, 0, end, (byte) '\n') + 1;
    return begin > 0 || start == origin ? Arrays.copyOfRange(b, begin, Math.max(begin, end)) : new byte[0];
  }

  /**
   * The whole lines at the end of {@code b[0, length)} (a stream's chunk, which ends with a line),
   * at most WINDOW bytes of them: a copy, for the next chunk.
   */
  static byte[] ofChunk(byte[] b, int length) {
    int from = Math.max(0, length - WINDOW);
    int begin = from == 0 ? 0 : Bytes.indexOfByte(b, from - 1, length, (byte) '\n') + 1;
    return begin > 0 || from == 0 ? Arrays.copyOfRange(b, begin, length) : new byte[0];
  }

  /** The most lines {@link #records} keeps. */
  static final int RECORDS = 16;

  /**
   * The last {@link #RECORDS} of the whole lines in {@code lines} that may hold an NCCL record (its
   * level token, or before 2.3 "] INFO "), in their order: all a parser learns where wrappers end
   * from, without the cost of learning the other lines' texts.
   */
  static byte[] records(byte[] lines) {
    int[] from = new int[RECORDS];
    int[] to = new int[RECORDS];
    int n = 0;
    int bytes = 0;
    int e = lines.length;
    while (e > 0 && n < RECORDS) {
      int s = lastLineEnd(lines, 0, e - 1); // the line [s, e) with its newline
      if (LevelTokens.levelToken(lines, s, e) >= 0 || LevelTokens.oldLevelToken(lines, s, e) >= 0) {
        from[n] = s;
        to[n] = e;
        bytes += e - s;
        n++;
      }
      e = s;
    }
    byte[] out = new byte[bytes];
    int at = 0;
    for (int i = n - 1; i >= 0; i--) {
      System.arraycopy(lines, from[i], out, at, to[i] - from[i]);
      at += to[i] - from[i];
    }
    return out;
  }

  /** Just past the last newline in b[from, to), or from if there is none. */
  private static int lastLineEnd(byte[] b, int from, int to) {
    for (int i = to - 1; i >= from; i--) {
      if (b[i] == '\n') {
        return i + 1;
      }
    }
    return from;
  }
}
