package dev.nccltriage.source.log;

import java.io.IOException;
import java.io.InputStream;

/**
 * Splits a byte stream into lines with bounded memory: a line longer than {@code maxLine} is
 * handed over truncated and the rest of it is skipped, so a 60 MB line without a newline costs
 * no more memory than a short one.
 */
final class LineReader {
  static final int DEFAULT_MAX_LINE = 64 * 1024;
  private static final int CHUNK = 1 << 18;

  private final int maxLine;
  private final Progress progress;
  private byte[] buf; // kept between reads: a reader is reused for the parts of a large file

  LineReader(int maxLine) {
    this(maxLine, Progress.NONE);
  }

  LineReader(int maxLine, Progress progress) {
    this.maxLine = maxLine;
    this.progress = progress;
  }

  /**
   * Reads lines whose first byte lies before {@code limit} bytes of the stream (Long.MAX_VALUE
   * for all); returns the number of lines handed to the sink.
   */
  long read(InputStream in, long limit, LineSink sink) throws IOException {
    return read(in, limit, sink, false);
  }

  /**
   * As {@link #read(InputStream, long, LineSink)}; with {@code skipFirst} the first line is not
   * handed over and the next one is line 1 (a part of a file that starts inside a line).
   */
  long read(InputStream in, long limit, LineSink sink, boolean skipFirst) throws IOException {
    if (buf == null) {
      buf = new byte[CHUNK + maxLine];
    }
    return read(in, buf, 0, limit, sink, skipFirst);
  }

  /**
   * Reads the lines of {@code bytes[0, length)} where they lie, as {@link #read(InputStream, long,
   * LineSink)} would read them from a stream of those bytes (a stream's chunk, filled by another
   * thread: copying it into this reader's buffer first cost its parser 5% of its time). The sink
   * may read bytes past {@code length}, up to the array's end, as it may past a stream's.
   */
  long read(byte[] bytes, int length, LineSink sink) throws IOException {
    long lines = read(null, bytes, length, Long.MAX_VALUE, sink, false);
    progress.advance(length, lines);
    return lines;
  }

  /** The loop of both: {@code in} null means that {@code buf[0, len)} is all there is. */
  private long read(InputStream in, byte[] buf, int len, long limit, LineSink sink, boolean skipFirst)
      throws IOException {
    escapeSeen = false;
    int pos = 0; // start of the current line in buf
    long consumed = 0; // stream offset of buf[0]
    long lineNo = skipFirst ? -1 : 0;
    long linesReported = 0;
    boolean skipping = false; // inside the tail of an over-long line
    boolean eof = in == null;
    // bytes of the current line searched for its newline already: a line that arrives over
    // several reads is searched once, not from its start after every read
    int searched = 0;
    while (true) {
      if (!skipping && lineNo >= 0 && searched == 0) {
        // the usual state, line after line: lines that start before the limit and end in the buffer
        // (an empty line is not offered to the fast lane: nothing in it can be a cached thread's)
        int stop = (int) Math.min(len, Math.max(pos, limit - consumed));
        while (pos < stop) {
          if (buf[pos] == '\n') {
            // blank lines come in runs (a program's spacing, a tail of newlines): counted as one
            int run = newlineRun(buf, pos, stop);
            sink.blankLines(buf, pos, run, lineNo + 1);
            if (((lineNo + run) >>> 6) != (lineNo >>> 6)) {
              stopIfInterrupted();
            }
            lineNo += run;
            pos += run;
            continue;
          }
          int scanTo = Math.min(len, pos + maxLine + 1);
          // a line is tested for short before it is offered to lineAt: a line that short holds no
          // thread's prefix (lineAt would decline it, after a prefix lookup, and a wrapper's parse
          // for a number), and the test costs a longer line one word's read
          if (pos + LineSink.SHORT_LINE <= len) {
            // no thread's line: one whose newline is among its first eight bytes (one word) is
            // handed over as short, and nothing NCCL's is looked for in it
            long w = Bytes.word(buf, pos);
            long control = (w - SPACES) & ~w & HIGHS;
            int nl = control == 0 ? -1 : shortLineEnd(buf, pos, control);
            if (nl >= 0 && nl - pos <= maxLine) {
              sink.shortLine(buf, pos, nl, lineNo + 1, w);
              if ((++lineNo & 63) == 0) {
                stopIfInterrupted();
              }
              pos = nl + 1;
              continue;
            }
          }
          int end = sink.lineAt(buf, pos, scanTo, lineNo + 1);
          if (end < 0) {
            // -1: search the whole line; below: the sink vouches for the bytes before -2 - end
            end = indexOfNewline(buf, end == -1 ? pos : -2 - end, scanTo);
            if (end < 0) {
              searched = scanTo - pos; // searched already: the loop below goes on from there
              break;
            }
            sink.line(buf, pos, end, lineNo + 1, false, escapeSeen);
            escapeSeen = false;
          }
          if ((++lineNo & 63) == 0) {
            stopIfInterrupted();
          }
          pos = end + 1;
        }
      }
      // a line longer than maxLine is cut whatever the read sizes: look no further than that
      int scanTo = Math.min(len, pos + maxLine + 1);
      // the loop above stopped at the part's limit: the line starting there is the next part's
      // (every other line in that state it took, or left half-searched or blank for what follows)
      if (!skipping && lineNo >= 0 && pos < scanTo && searched == 0 && buf[pos] != '\n' && consumed + pos >= limit) {
        return lineNo;
      }
      int nl = !skipping && pos + searched < scanTo ? indexOfNewline(buf, pos + searched, scanTo) : -1;
      searched = nl >= 0 ? 0 : Math.max(searched, scanTo - pos);
      if (nl >= 0) {
        if (!skipping) {
          if (consumed + pos >= limit) {
            return Math.max(0, lineNo);
          }
          if (++lineNo > 0) {
            sink.line(buf, pos, nl, lineNo, false, escapeSeen);
          }
          if ((lineNo & 63) == 0) {
            stopIfInterrupted();
          }
        }
        escapeSeen = false;
        skipping = false;
        pos = nl + 1;
        continue;
      }
      if (!skipping && len - pos > maxLine) {
        if (consumed + pos >= limit) {
          return Math.max(0, lineNo);
        }
        if (++lineNo > 0) {
          sink.line(buf, pos, pos + maxLine, lineNo, true, true);
        }
        skipping = true;
        searched = 0;
        pos += maxLine;
        continue;
      }
      if (skipping) {
        // drop the rest of an over-long line up to the next newline (no ESC to note: it is not kept)
        searched = 0;
        int next = Bytes.indexOfByte(buf, pos, len, (byte) '\n');
        if (next >= 0) {
          pos = next + 1;
          skipping = false;
          escapeSeen = false;
          continue;
        }
        consumed += len;
        pos = 0;
        len = 0;
        if (consumed >= limit) {
          // the next line would start past the limit: it is the next part's. Reading on to the
          // newline would read the rest of the file (a crashed node's tail of NULs) once per part
          return Math.max(0, lineNo);
        }
      }
      if (eof) {
        if (!skipping && pos < len && consumed + pos < limit) {
          if (++lineNo > 0) {
            sink.line(buf, pos, len, lineNo, false, true);
          }
        }
        return Math.max(0, lineNo);
      }
      if (pos > 0) {
        System.arraycopy(buf, pos, buf, 0, len - pos);
        consumed += pos;
        len -= pos;
        pos = 0;
      }
      stopIfInterrupted();
      int n = in.read(buf, len, Math.min(buf.length - len, CHUNK));
      if (n < 0) {
        eof = true;
      } else {
        len += n;
        progress.advance(n, Math.max(0, lineNo - linesReported));
        linesReported = Math.max(linesReported, lineNo);
      }
    }
  }

  /**
   * A parser thread whose pool stopped (another part failed, the heap ran out) stops within 64
   * lines, with its part unread: what it holds must be garbage before the error is reported, and
   * a part of lines that each allocate can take seconds on a nearly full heap.
   */
  private static void stopIfInterrupted() throws java.io.InterruptedIOException {
    if (Thread.currentThread().isInterrupted()) {
      throw new java.io.InterruptedIOException("parse stopped");
    }
  }

  private boolean escapeSeen; // an ESC byte in the line being scanned, found in the newline pass
  private static final long SPACES = Bytes.broadcast((byte) 0x20);
  private static final long ESCAPES = Bytes.broadcast((byte) 0x1b);
  private static final long HIGHS = 0x8080808080808080L;

  private static final long NEWLINES = Bytes.broadcast((byte) '\n');
  private static final long LOWS = ~HIGHS;

  /** How many newlines follow each other from {@code at} (one at least), before {@code stop}. */
  private static int newlineRun(byte[] a, int at, int stop) {
    int i = at;
    for (; i + 8 <= stop; i += 8) {
      long x = Bytes.word(a, i) ^ NEWLINES;
      if (x != 0) {
        // the first byte that is no newline: each byte's test is exact (no carry between bytes)
        return i + Bytes.firstMarkedByte((((x & LOWS) + LOWS) | x) & HIGHS) - at;
      }
    }
    while (i < stop && a[i] == '\n') {
      i++;
    }
    return i - at;
  }

  /**
   * The newline among the eight bytes at {@code at} whose control bytes {@code control} flags, if
   * no ESC comes before it; else -1. The test that flags control bytes is exact for the first one
   * and may flag a later byte that is none: each flagged byte is read.
   */
  private static int shortLineEnd(byte[] a, int at, long control) {
    while (control != 0) {
      int i = at + Bytes.firstMarkedByte(control);
      if (a[i] == '\n') {
        return i;
      }
      if (a[i] == 0x1b) {
        return -1;
      }
      control &= control - 1;
    }
    return -1;
  }

  /**
   * The next newline at or after {@code from}, noting ESC bytes (ANSI colour) on the way; -1 if
   * none before {@code to}. One test per eight bytes flags every control byte (below 0x20); only
   * those are looked at.
   */
  private int indexOfNewline(byte[] a, int from, int to) {
    int i = from;
    for (; i + 8 <= to; i += 8) {
      long w = Bytes.word(a, i);
      if (((w - SPACES) & ~w & HIGHS) == 0) {
        continue; // no byte below a blank: most words of a line
      }
      // a tab, or another program's control bytes: only a newline and ESC are looked for (the lowest
      // mark of each is exact)
      long newline = Bytes.zeroBytes(w ^ NEWLINES);
      long escape = Bytes.zeroBytes(w ^ ESCAPES);
      if (newline != 0) {
        int at = Bytes.firstMarkedByte(newline);
        escapeSeen |= escape != 0 && Bytes.firstMarkedByte(escape) < at;
        return i + at;
      }
      escapeSeen |= escape != 0;
    }
    for (; i < to; i++) {
      if (a[i] == '\n') {
        return i;
      }
      if (a[i] == 0x1b) {
        escapeSeen = true;
      }
    }
    return -1;
  }
}
