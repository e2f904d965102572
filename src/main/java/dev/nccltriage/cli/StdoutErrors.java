package dev.nccltriage.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Standard output that remembers its first write error. PrintStream swallows them, so a report
 * written to a full disk or {@code /dev/full} would exit 0 with a cut or empty file; coreutils
 * exit non-zero with "write error" instead, and so does this tool. A reader that went away
 * ({@code | head}, EPIPE) is no error worth a message.
 */
final class StdoutErrors extends FilterOutputStream {
  private IOException first;

  StdoutErrors(OutputStream out) {
    super(out);
  }

  @Override
  public void write(int b) throws IOException {
    try {
      out.write(b);
    } catch (IOException e) {
      throw note(e);
    }
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    try {
      out.write(b, off, len);
    } catch (IOException e) {
      throw note(e);
    }
  }

  @Override
  public void flush() throws IOException {
    try {
      out.flush();
    } catch (IOException e) {
      throw note(e);
    }
  }

  private synchronized IOException note(IOException e) {
    if (first == null) {
      first = e;
    }
    return e;
  }

  /**
   * The exit code once {@code stdout} (a PrintStream over this) is flushed: {@code code} if every
   * write went through; quiet 141 (as if killed by SIGPIPE) for a reader that went away; 2 with a
   * message for a closed descriptor ({@code >&-}); 4 with "write error" for anything else (a
   * full disk, an I/O error), the codes issue 11 set.
   */
  int exitCode(int code, PrintStream stdout, PrintStream stderr) {
    stdout.flush();
    if (!stdout.checkError()) {
      return code;
    }
    String why;
    synchronized (this) {
      why = first == null ? "unknown error" : String.valueOf(first.getMessage());
    }
    if (why.contains("Broken pipe")) {
      return ExitCode.BROKEN_PIPE.code();
    }
    stderr.println("nccl-triage: write error: " + why);
    return why.contains("Bad file descriptor") ? ExitCode.USAGE.code() : ExitCode.INTERNAL.code();
  }
}
