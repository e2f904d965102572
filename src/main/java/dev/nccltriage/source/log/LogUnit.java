package dev.nccltriage.source.log;

import java.nio.file.Path;
import java.util.concurrent.BlockingQueue;

/** A piece of input number {@code input} parsed on its own. */
sealed interface LogUnit permits LogUnit.Part, LogUnit.Whole, LogUnit.Chunk {
  int input();

  String name();

  /** The lines of a plain file that start in [from, to). */
  record Part(int input, String name, Path path, long from, long to) implements LogUnit {}

  /** A whole input (path null: stdin); a stream (stdin, pipe, gzip) may be cut into chunks. */
  record Whole(int input, String name, Path path, boolean stream) implements LogUnit {}

  /** Whole lines of a stream, in order; the buffer goes back to {@code free} once parsed. */
  record Chunk(int input, String name, byte[] bytes, int length, BlockingQueue<byte[]> free)
      implements LogUnit {}
}
