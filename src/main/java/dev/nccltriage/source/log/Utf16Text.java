package dev.nccltriage.source.log;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.Charset;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A log saved as UTF-16 read as the UTF-8 the parser expects. Windows PowerShell 5's {@code kubectl
 * logs POD > job.log} writes UTF-16LE with a byte-order mark: read byte by byte, every other byte
 * is NUL and no NCCL line is found ("no NCCL lines" for a log full of them). The encoding is told
 * by the mark, or without one by the first characters being ASCII with a NUL beside each.
 */
final class Utf16Text extends InputStream {
  /** Bytes looked at to tell the encoding. */
  static final int HEAD = 32;
  private static final int MIN_UNITS = 4;

  private final Reader reader;
  private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
      .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
  private final CharBuffer chars = CharBuffer.allocate(1 << 14);
  private final ByteBuffer bytes = ByteBuffer.allocate(3 * (1 << 14) + 8);
  private boolean eof;

  private Utf16Text(InputStream in, Charset charset) {
    // a malformed unit (an odd byte at the end, a lone surrogate) becomes U+FFFD: never an error
    this.reader = new InputStreamReader(in, charset.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE));
    chars.flip();
    bytes.flip();
  }

  /**
   * The UTF-16 charset the first {@code n} bytes of a text show, or null for any other text:
   * "UTF-16" (which reads and drops the mark) after a byte-order mark followed mostly by ASCII
   * characters, else UTF-16LE or BE when the first units are all ASCII text (a tab, a line end or
   * a printable byte) beside a NUL. A damaged UTF-8 log that happens to start with the mark's two
   * bytes is not taken for UTF-16: what follows them is not ASCII beside NULs.
   */
  static Charset charset(byte[] head, int n) {
    boolean le = n >= 2 && (head[0] & 0xff) == 0xff && (head[1] & 0xff) == 0xfe;
    boolean be = n >= 2 && (head[0] & 0xff) == 0xfe && (head[1] & 0xff) == 0xff;
    if (le || be) {
      if (le && n >= 4 && head[2] == 0 && head[3] == 0) {
        return null; // UTF-32LE's mark: not this
      }
      int units = (n - 2) / 2;
      return 2 * asciiUnits(head, 2, units, le) >= units ? StandardCharsets.UTF_16 : null;
    }
    int units = n / 2;
    if (units < MIN_UNITS) {
      return null;
    }
    return asciiUnits(head, 0, units, true) == units ? StandardCharsets.UTF_16LE
        : asciiUnits(head, 0, units, false) == units ? StandardCharsets.UTF_16BE : null;
  }

  /** How many of the {@code units} two-byte units from {@code at} are an ASCII text byte and a NUL. */
  private static int asciiUnits(byte[] head, int at, int units, boolean littleEndian) {
    int ascii = 0;
    for (int i = 0; i < units; i++) {
      byte lo = head[at + 2 * i + (littleEndian ? 0 : 1)];
      byte hi = head[at + 2 * i + (littleEndian ? 1 : 0)];
      ascii += hi == 0 && isAsciiText(lo) ? 1 : 0;
    }
    return ascii;
  }

  private static boolean isAsciiText(byte c) {
    return c == '\t' || c == '\n' || c == '\r' || c >= 0x20 && c < 0x7f;
  }

  /** {@code in} read as UTF-8: transcoded when its first bytes show UTF-16; it must support mark. */
  static InputStream utf8(InputStream in) throws IOException {
    byte[] head = new byte[HEAD];
    in.mark(HEAD);
    int n = in.readNBytes(head, 0, HEAD);
    in.reset();
    Charset cs = charset(head, n);
    return cs == null ? in : new Utf16Text(in, cs);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    while (!bytes.hasRemaining()) {
      if (eof) {
        return -1;
      }
      fill();
    }
    int n = Math.min(len, bytes.remaining());
    bytes.get(b, off, n);
    return n;
  }

  /** Decodes the next characters and encodes them into {@link #bytes}. */
  private void fill() throws IOException {
    chars.compact();
    int r = reader.read(chars);
    chars.flip();
    if (r < 0) {
      eof = true;
    }
    bytes.clear();
    utf8.encode(chars, bytes, eof);
    if (eof) {
      utf8.flush(bytes);
    }
    bytes.flip();
  }

  @Override
  public void close() throws IOException {
    reader.close();
  }
}
