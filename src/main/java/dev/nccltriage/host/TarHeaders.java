package dev.nccltriage.host;

import static dev.nccltriage.host.TarGz.BLOCK;

import dev.nccltriage.evidence.Printable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Decoding a tar header's fields and pax records, for {@link TarExtractor}. */
final class TarHeaders {
  private TarHeaders() {}

  static List<String[]> pax(byte[] data, String entry) throws IOException {
    List<String[]> out = new ArrayList<>();
    int i = 0;
    while (i < data.length) {
      int sp = i;
      while (sp < data.length && data[sp] != ' ') {
        sp++;
      }
      int len;
      try {
        len = Integer.parseInt(new String(data, i, sp - i, StandardCharsets.US_ASCII));
      } catch (NumberFormatException e) {
        throw new IOException("entry '" + show(entry) + "': bad pax record");
      }
      if (len <= sp - i || i + len > data.length) {
        throw new IOException("entry '" + show(entry) + "': bad pax record length");
      }
      String rec = new String(data, sp + 1, i + len - sp - 2, StandardCharsets.UTF_8);
      int eq = rec.indexOf('=');
      if (eq > 0) {
        out.add(new String[] {rec.substring(0, eq), rec.substring(eq + 1)});
      }
      i += len;
    }
    return out;
  }

  static boolean isUstar(byte[] h) {
    return h[257] == 'u' && h[258] == 's' && h[259] == 't' && h[260] == 'a' && h[261] == 'r';
  }

  static void verifyChecksum(byte[] h, String name, long at) throws IOException {
    long unsigned = 0;
    long signed = 0;
    for (int i = 0; i < BLOCK; i++) {
      int b = i >= 148 && i < 156 ? ' ' : h[i];
      unsigned += b & 0xff;
      signed += i >= 148 && i < 156 ? ' ' : h[i];
    }
    long stored;
    try {
      stored = parseNumber(h, 148, 8, name);
    } catch (IOException e) {
      stored = -1;
    }
    if (stored != unsigned && stored != signed) {
      // no name: the bytes of a header that is not one are noise
      throw new IOException("not a tar archive, or a damaged one: bad header checksum at byte " + at);
    }
  }

  static long parseNumber(byte[] h, int off, int len, String name) throws IOException {
    if ((h[off] & 0x80) != 0) {
      long v = h[off] & 0x7f;
      for (int i = off + 1; i < off + len; i++) {
        if (v > (Long.MAX_VALUE >> 8)) {
          throw new IOException("entry '" + show(name) + "': number out of range");
        }
        v = (v << 8) | (h[i] & 0xff);
      }
      return v;
    }
    long v = 0;
    boolean any = false;
    for (int i = off; i < off + len; i++) {
      byte b = h[i];
      if (b == 0 || (b == ' ' && any)) {
        break;
      }
      if (b == ' ') {
        continue;
      }
      if (b < '0' || b > '7') {
        throw new IOException("entry '" + show(name) + "': bad octal field in header");
      }
      v = v * 8 + (b - '0');
      any = true;
    }
    return v;
  }

  static String cString(byte[] b, int off, int len) {
    int end = off;
    while (end < off + len && b[end] != 0) {
      end++;
    }
    return new String(b, off, end - off, StandardCharsets.UTF_8);
  }

  /** An entry name fit for a message: control characters escaped, at most 120 characters. */
  static String show(String name) {
    return Printable.line(name, 120);
  }

  static boolean allZero(byte[] b) {
    for (byte x : b) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }
}
