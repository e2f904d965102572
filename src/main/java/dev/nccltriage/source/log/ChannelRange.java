package dev.nccltriage.source.log;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A file's bytes from an offset on, read with positional reads: the channel's own position is
 * neither used nor moved, so the parts of one file (standard input's channel among them) are read
 * by several threads at once.
 */
final class ChannelRange extends InputStream {
  private final FileChannel channel;
  private long position;

  ChannelRange(FileChannel channel, long from) {
    this.channel = channel;
    this.position = from;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    int n = channel.read(ByteBuffer.wrap(b, off, len), position);
    if (n > 0) {
      position += n;
    }
    return n;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
  }
}
