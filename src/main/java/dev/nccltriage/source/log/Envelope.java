package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * What log aggregators and pastes wrap around a line that is not NCCL's: Ray's
 * " [repeated 3x across cluster]", a markdown table's " |", bold "**" and code "`" (spec §0b), cut
 * before names are read to the end of a line; and the lines of other programs that say the job
 * crashed.
 */
final class Envelope {
  private static final byte[] REPEATED = ascii(" [repeated ");
  private static final byte[][] CRASH_S = {ascii("SIGSEGV"), ascii("SIGABRT"), ascii("SIGBUS"),
      ascii("Segmentation fault")};
  private static final byte[] CORE_DUMPED = ascii("core dumped");
  private static final byte[] WATCHDOG = ascii("Watchdog caught collective operation timeout");
  private static final byte[] FATAL_PYTHON = ascii("Fatal Python error");
  private static final byte[][] NCCL_RESULTS = {ascii("ncclSystemError"), ascii("ncclInternalError"),
      ascii("ncclRemoteError"), ascii("ncclUnhandledCudaError"), ascii("ncclInvalidUsage"),
      ascii("ncclInvalidArgument"), ascii("ncclTimeout")};

  private Envelope() {}

  static boolean mayHaveSuffix(byte last) {
    return last == ']' || last == '*' || last == '`' || last == '|' || last == ' ' || last == '\t';
  }

  /** The end of [s, e) without the wrappers above (and the blanks around them). */
  static int trimSuffix(byte[] b, int s, int e) {
    int end = e;
    while (true) {
      int before = end;
      while (end > s && (b[end - 1] == ' ' || b[end - 1] == '\t')) {
        end--;
      }
      if (end > s && (b[end - 1] == '*' || b[end - 1] == '`' || b[end - 1] == '|')) {
        end--;
      } else if (end > s && b[end - 1] == ']') {
        int open = end - 2;
        while (open >= s && b[open] != '[' && end - open < 48) {
          open--;
        }
        if (open > s && startsWith(b, open - 1, end, REPEATED)) {
          end = open - 1;
        }
      }
      if (end == before) {
        return end;
      }
    }
  }

  /**
   * A crash or a failed collective printed by the program around NCCL. One pass over the line,
   * comparing only where two bytes start a marker ("SI", "Se", "co", "Wa", "Fa", "nc").
   */
  static boolean isCrash(byte[] b, int s, int e) {
    for (int i = s; i < e - 1; i++) {
      byte x = b[i];
      byte y = b[i + 1];
      boolean candidate = x == 'S' ? y == 'I' || y == 'e' : x == 'c' ? y == 'o' : x == 'W' || x == 'F' ? y == 'a'
          : x == 'n' && y == 'c';
      if (!candidate) {
        continue;
      }
      switch (x) {
        case 'S' -> {
          for (byte[] c : CRASH_S) {
            if (startsWith(b, i, e, c)) {
              return true;
            }
          }
        }
        case 'c' -> {
          if (startsWith(b, i, e, CORE_DUMPED)) {
            return true;
          }
        }
        case 'W' -> {
          if (startsWith(b, i, e, WATCHDOG)) {
            return true;
          }
        }
        case 'F' -> {
          if (startsWith(b, i, e, FATAL_PYTHON)) {
            return true;
          }
        }
        case 'n' -> {
          if (i + 4 < e && b[i + 1] == 'c' && b[i + 2] == 'c' && b[i + 3] == 'l') {
            for (byte[] c : NCCL_RESULTS) {
              if (startsWith(b, i, e, c)) {
                return true;
              }
            }
          }
        }
        default -> { }
      }
    }
    return false;
  }
}
