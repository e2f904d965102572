package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.indexOf;
import static dev.nccltriage.source.log.Bytes.startsWith;

/**
 * NCCL's level tokens in a line: "NCCL INFO " and "NCCL WARN ", and before 2.3 "INFO " and
 * "WARN " after the device's "] ". Where a record's level is, whether a prefix ends in one, and
 * where a record glued after another starts.
 */
final class LevelTokens {
  static final byte[] NCCL = ascii("NCCL ");
  static final byte[] INFO = ascii("INFO");
  static final byte[] WARN = ascii("WARN");
  static final byte[] BRACKET_SPACE = ascii("] ");
  static final int LEVEL_WORD = 5; // "INFO " or "WARN ": the level token's last word
  private static final byte[] NCCL_INFO = ascii("NCCL INFO ");
  private static final byte[] NCCL_WARN = ascii("NCCL WARN ");
  private static final byte[] OLD_INFO = ascii("] INFO ");
  private static final byte[] OLD_WARN = ascii("] WARN ");

  private LevelTokens() {}

  /** Whether [lvl, msg) is a level token: "NCCL INFO ", "NCCL WARN ", or before 2.3 "INFO ", "WARN ". */
  static boolean isLevel(byte[] b, int lvl, int msg) {
    int n = msg - lvl;
    return n == NCCL_INFO.length && (startsWith(b, lvl, msg, NCCL_INFO) || startsWith(b, lvl, msg, NCCL_WARN))
        || n == LEVEL_WORD && (startsWith(b, lvl, msg, INFO) || startsWith(b, lvl, msg, WARN)) && b[lvl + 4] == ' ';
  }

  /** Whether the level token at lvl ("NCCL WARN ", or "WARN " before 2.3; a cached prefix's) is WARN. */
  static boolean isWarn(byte[] b, int lvl, int msg) {
    int w = msg - 5;
    return w >= lvl && b[w] == 'W' && startsWith(b, w, msg, WARN);
  }

  /**
   * Where the level token of a record glued after the one whose level token is at {@code lvl} starts
   * in [from, e), or -1. A record before 2.3 ("host:pid:tid [dev] INFO msg") has others of its
   * version glued after it: their "] INFO " after a host's prefix is looked for too (a text without
   * an 'N' holds neither token: MessageTexts.PLAIN holds for both).
   */
  static int nextLevel(byte[] b, int from, int e, int lvl, Prefix gluedPrefix) {
    // lvl is at "NCCL INFO" (a parsed prefix) or at its "INFO" (a cached one's); before 2.3 at the
    // "INFO" of "] INFO" (two bytes: this runs on every channel line with a tail)
    if (b[lvl] == 'N' || lvl < 2 || b[lvl - 2] != ']') {
      return levelToken(b, from, e);
    }
    // the old token first, and "NCCL " only up to it: a line of old records holds no "NCCL ", and
    // a search to the line's end for each record glued in it was quadratic in its length
    int old = -1;
    for (int br = indexOf(b, from, e, BRACKET_SPACE); br >= 0 && old < 0;
        br = indexOf(b, br + 1, e, BRACKET_SPACE)) {
      if (oldLevelAt(b, br, e)) {
        gluedPrefix.parse(b, from, br + 2);
        old = gluedPrefix.hostStart >= 0 ? br + 2 : -1;
      }
    }
    int next = levelToken(b, from, old < 0 ? e : old);
    return next >= 0 ? next : old;
  }

  /** Whether "NCCL INFO" or "NCCL WARN" starts at i: a record's level token, its own or a glued one's. */
  static boolean levelAt(byte[] b, int i, int e) {
    return startsWith(b, i, e, NCCL) && (startsWith(b, i + 5, e, INFO) || startsWith(b, i + 5, e, WARN));
  }

  /** The first "] INFO " or "] WARN " in [s, e) (the level of a record before 2.3) or -1. */
  static int oldLevelToken(byte[] b, int s, int e) {
    for (int br = indexOf(b, s, e, BRACKET_SPACE); br >= 0; br = indexOf(b, br + 1, e, BRACKET_SPACE)) {
      if (oldLevelAt(b, br, e)) {
        return br;
      }
    }
    return -1;
  }

  /** Whether before 2.3's level token, "] INFO " or "] WARN " (after "[dev"), starts at i. */
  static boolean oldLevelAt(byte[] b, int i, int e) {
    return startsWith(b, i, e, OLD_INFO) || startsWith(b, i, e, OLD_WARN);
  }

  /**
   * Start of the first "NCCL INFO|WARN" level token in [from, e), or -1: in a record's message, a
   * second record glued to it; in a wrapped line, where its record is.
   */
  static int levelToken(byte[] b, int from, int e) {
    int next = indexOf(b, from, e, NCCL);
    while (next >= 0 && !levelAt(b, next, e)) {
      next = indexOf(b, next + 1, e, NCCL);
    }
    return next;
  }
}
