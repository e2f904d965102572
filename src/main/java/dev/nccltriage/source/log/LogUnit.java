package dev.nccltriage.source.log;

import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;

/** A piece of input number {@code input} parsed on its own. */
sealed interface LogUnit permits LogUnit.Part, LogUnit.Whole, LogUnit.Chunk {
  int input();

  String name();

  /**
   * The lines of a plain file that start in [from, to): the file at {@code path}, or (path null)
   * standard input's {@code channel}, a regular file whose bytes from {@code origin} on are the input.
   */
  record Part(int input, String name, Path path, FileChannel channel, long origin, long from, long to)
      implements LogUnit {
    /** The part at the input's start: no line of an earlier part runs into it. */
    boolean first() {
      return from == origin;
    }
  }

  /** A whole input (path null: stdin); a stream (stdin, pipe, gzip) may be cut into chunks. */
  record Whole(int input, String name, Path path, boolean stream) implements LogUnit {}

  /**
   * Whole lines of a stream, in order ({@code first}: the stream's first chunk); the buffer goes back
   * to {@code free} once parsed. {@code before}: a copy of the last lines of the chunk before it
   * ({@link LinesBefore#ofChunk}; empty for the first).
   */
  record Chunk(int input, String name, byte[] bytes, int length, boolean first, byte[] before,
      BlockingQueue<byte[]> free) implements LogUnit {}
}
