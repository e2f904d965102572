package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * The times that stand before a line's text ({@link Envelope}): a date and a time (kubectl's, a
 * runtime's, a logger's, NCCL's own), and a time in brackets.
 */
final class LineTimes {
  private static final int DATE_TIME_LENGTH = "0000-00-00T00:00:00".length();
  private static final byte[] STDOUT = ascii("stdout ");
  private static final byte[] STDERR = ascii("stderr ");

  private LineTimes() {}

  // lanes of a little-endian word: "YYYY-MM-" has its dashes in lanes 4 and 7, "DDTHH:MM" its
  // 'T' (or a space) in lane 2 and its colon in lane 5; the other lanes are digits
  private static final long DATE_SEPARATORS = 0xFFL << 56 | 0xFFL << 32;
  private static final long DATE_DASHES = (long) '-' << 56 | (long) '-' << 32;
  private static final long DATE_DIGITS = 0x0080800080808080L;
  private static final long TIME_SEPARATORS = 0xFFL << 40 | 0xFFL << 16;
  private static final long TIME_T = (long) ':' << 40 | (long) 'T' << 16;
  private static final long TIME_SPACE = (long) ':' << 40 | (long) ' ' << 16;
  private static final long TIME_DIGITS = 0x8080008080008080L;
  private static final long ALL_LANES = 0x8080808080808080L;

  /** Whether the lanes of w marked in {@code lanes} (their high bits) are ASCII digits. */
  private static boolean digitLanes(long w, long lanes) {
    long x = w ^ 0x3030303030303030L; // a digit lane is now 0-9
    // a lane of 10 or more reaches its high bit when 0x76 is added; one above 0x7F has it already
    // (a carry out of such a lane may spoil the next: the word is rejected either way)
    return ((x | x + 0x7676767676767676L) & lanes) == 0;
  }

  /** After a timestamp at s ({@link #afterTimestamp}) or a time in brackets ({@link #afterBracketedTime}); else s. */
  static int afterTime(byte[] b, int s, int e) {
    return s < e && b[s] == '[' ? afterBracketedTime(b, s, e) : afterTimestamp(b, s, e);
  }

  /**
   * After a time in brackets at s ('[') and a blank: the kernel's and journald's monotonic seconds
   * ({@code dmesg}, {@code journalctl -o short-monotonic}: {@code [  123.456789] }, padded with
   * spaces) or a logger's time of day ({@code [10:00:00] }, {@code [10:00:00.123] }); else s. Only
   * digits, one or two colons or one dot, and a fraction: a rank's tag, a Pod or NCCL's
   * {@code [0]} has letters or no separator, and NCCL's own date and time is read after the tags.
   */
  static int afterBracketedTime(byte[] b, int s, int e) {
    int max = Math.min(e, s + 24);
    int i = s + 1;
    while (i < max && b[i] == ' ') {
      i++;
    }
    int j = Bytes.skipDigits(b, i, max);
    if (j == i) {
      return s;
    }
    int colons = 0;
    while (j < max && b[j] == ':' && colons < 2) {
      int k = Bytes.skipDigits(b, j + 1, max);
      if (k - j != 3) {
        return s; // a time of day's minutes and seconds have two digits each
      }
      colons++;
      j = k;
    }
    if (colons == 1) {
      return s;
    }
    if (j < max && b[j] == '.') {
      int f = Bytes.skipDigits(b, j + 1, max);
      if (f == j + 1) {
        return s;
      }
      j = f;
    } else if (colons == 0) {
      return s; // "[12] ": a count, a device, not a time
    }
    return j + 1 < max && b[j] == ']' && (b[j + 1] == ' ' || b[j + 1] == '\t') ? j + 2 : s;
  }

  private static int afterTimestamp(byte[] b, int s, int e) {
    int i = timeEnd(b, s, e);
    if (i < 0 || i >= e || b[i] != ' ' && b[i] != '\t') { // a tab: Loki's and other exports' columns
      return s;
    }
    i++;
    if (startsWith(b, i, e, STDOUT) || startsWith(b, i, e, STDERR)) {
      int tag = i + STDOUT.length;
      i = tag + 1 < e && (b[tag] == 'F' || b[tag] == 'P') && b[tag + 1] == ' ' ? tag + 2 : tag;
    }
    return i;
  }

  /**
   * The end of a date and time at s (its fraction and zone included), or -1 if none starts there
   * or it runs on for more than 40 bytes.
   */
  static int timeEnd(byte[] b, int s, int e) {
    // "YYYY-MM-" and "DDTHH:MM" as two words, then ":SS": every byte is checked (none is a
    // newline, so a short line is not read past); every line of an application's log that starts
    // with its own timestamp comes here
    if (e - s < 21 || !Bytes.isDigit(b[s])) {
      return -1;
    }
    long date = Bytes.word(b, s);
    long time = Bytes.word(b, s + 8);
    if ((date & DATE_SEPARATORS) != DATE_DASHES || !digitLanes(date, DATE_DIGITS)
        || (time & TIME_SEPARATORS) != TIME_T && (time & TIME_SEPARATORS) != TIME_SPACE
        || !digitLanes(time, TIME_DIGITS) || b[s + 16] != ':' || !Bytes.isDigit(b[s + 17])
        || !Bytes.isDigit(b[s + 18])) {
      return -1;
    }
    int i = s + DATE_TIME_LENGTH;
    int max = Math.min(e, s + 40);
    if (i < max && (b[i] == '.' || b[i] == ',')) {
      // a fraction of a second (nanoseconds from containerd, kubectl and Docker): eight digits at once
      i++;
      while (i + 8 <= max && digitLanes(Bytes.word(b, i), ALL_LANES)) {
        i += 8;
      }
    }
    while (i < max && (Bytes.isDigit(b[i]) || b[i] == '.' || b[i] == ',' || b[i] == ':' || b[i] == '+'
        || b[i] == '-' || b[i] == 'Z')) {
      i++;
    }
    return i < max ? i : -1;
  }
}
