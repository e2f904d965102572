package dev.nccltriage.host;

import static dev.nccltriage.host.TarGz.BLOCK;
import static dev.nccltriage.host.TarHeaders.show;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Moving an entry's data for {@link TarExtractor}: copied, read, skipped or padded, never past the stream's end unnoticed. */
final class TarData {
  private TarData() {}

  static void copy(InputStream in, OutputStream out, long size, byte[] buf, String entry) throws IOException {
    long left = size;
    while (left > 0) {
      int n = in.read(buf, 0, (int) Math.min(buf.length, left));
      if (n < 0) {
        throw new IOException("entry '" + show(entry) + "': truncated archive (" + left + " bytes missing)");
      }
      out.write(buf, 0, n);
      left -= n;
    }
  }

  static byte[] readFully(InputStream in, int size, String entry) throws IOException {
    byte[] b = in.readNBytes(size);
    if (b.length < size) {
      throw new IOException("entry '" + show(entry) + "': truncated archive");
    }
    return b;
  }

  static void skipFully(InputStream in, long n, String entry) throws IOException {
    long left = n;
    while (left > 0) {
      long s = in.skip(left);
      if (s <= 0) {
        if (in.read() < 0) {
          throw new IOException("entry '" + show(entry) + "': truncated archive");
        }
        s = 1;
      }
      left -= s;
    }
  }

  static void skipPadding(InputStream in, long size, String entry) throws IOException {
    long pad = (BLOCK - size % BLOCK) % BLOCK;
    if (pad > 0) {
      byte[] b = in.readNBytes((int) pad);
      if (b.length < pad) {
        throw new IOException("entry '" + show(entry) + "': truncated archive");
      }
    }
  }

  static final class NonClosingIn extends InputStream {
    private final InputStream in;

    NonClosingIn(InputStream in) {
      this.in = in;
    }

    @Override
    public int read() throws IOException {
      return in.read();
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      return in.read(b, off, len);
    }

    @Override
    public void close() {}
  }
}
