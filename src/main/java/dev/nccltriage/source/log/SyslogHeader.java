package dev.nccltriage.source.log;

/**
 * What syslog and journald put before a program's line when a job runs as a service:
 * {@code Dec  3 05:00:00 node python3[1000]: } (RFC 3164, rsyslog's traditional format),
 * {@code Dec 03 05:00:00.123456 node python3[1000]: } (journalctl's short and short-precise), or an
 * ISO time ({@code journalctl -o short-iso}, rsyslog's RFC 3339 format; cut as any timestamp is)
 * followed by the same sender. Past it, the line is the program's own: NCCL's envelope, or a bare
 * message such as PyTorch's "Last error:" repeat.
 */
final class SyslogHeader {
  private SyslogHeader() {}

  /** The first bytes of a month's name: where {@link #afterTime} can start. */
  static boolean mayStart(byte c) {
    return c == 'A' || c == 'D' || c == 'F' || c == 'J' || c == 'M' || c == 'N' || c == 'O' || c == 'S';
  }

  private static final byte[] MONTHS = Bytes.ascii("JanFebMarAprMayJunJulAugSepOctNovDec");

  /**
   * After {@code Mmm dd hh:mm:ss } at s (the day padded with a space or a zero, any fraction of a
   * second), and after the sender that follows it, if one does; else s.
   */
  static int afterTime(byte[] b, int s, int e) {
    int i = timeEnd(b, s, e);
    return i >= 0 ? afterSender(b, i + 1, e) : s;
  }

  /** The space after {@code Mmm dd hh:mm:ss} (and any fraction) at s; -1 if none is there. */
  static int timeEnd(byte[] b, int s, int e) {
    if (e - s < 16 || b[s + 3] != ' ' || !month(b, s)) {
      return -1;
    }
    int d = s + 4;
    if (!(b[d] == ' ' || Bytes.isDigit(b[d])) || !Bytes.isDigit(b[d + 1]) || b[d + 2] != ' ') {
      return -1;
    }
    int t = d + 3;
    for (int i = 0; i < 8; i++) {
      boolean colon = i == 2 || i == 5;
      if (colon ? b[t + i] != ':' : !Bytes.isDigit(b[t + i])) {
        return -1;
      }
    }
    int i = t + 8;
    if (i < e && b[i] == '.') {
      i = Bytes.skipDigits(b, i + 1, Math.min(e, i + 11));
    }
    return i < e && b[i] == ' ' ? i : -1;
  }

  private static boolean month(byte[] b, int s) {
    for (int m = 0; m < MONTHS.length; m += 3) {
      if (b[s] == MONTHS[m] && b[s + 1] == MONTHS[m + 1] && b[s + 2] == MONTHS[m + 2]) {
        return true;
      }
    }
    return false;
  }

  /** Longer than a host name (DNS: 253) or a syslog tag (RFC 3164: 32; journald's are longer). */
  private static final int MAX_HOST = 255;
  private static final int MAX_TAG = 128;

  /**
   * After {@code host tag[pid]: } at s; else s. The tag needs its pid: "word word: " alone is any
   * program's text.
   */
  static int afterSender(byte[] b, int s, int e) {
    int host = Bytes.wordEnd(b, s, Math.min(e, s + MAX_HOST));
    if (host == s || host >= e || b[host] != ' ') {
      return s;
    }
    int tag = host + 1;
    int open = tag;
    int max = Math.min(e, tag + MAX_TAG);
    while (open < max && b[open] != '[' && b[open] > ' ') {
      open++;
    }
    if (open == tag || open >= max || b[open] != '[') {
      return s;
    }
    int close = Bytes.skipDigits(b, open + 1, Math.min(e, open + 12));
    return close > open + 1 && close + 2 < e && b[close] == ']' && b[close + 1] == ':' && b[close + 2] == ' '
        ? close + 3 : s;
  }
}
