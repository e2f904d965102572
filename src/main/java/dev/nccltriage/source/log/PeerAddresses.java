package dev.nccltriage.source.log;

import java.util.function.Function;

/**
 * IPv4 peer addresses in message texts ("Connect to 10.4.7.21<43117> failed", "Got completion from
 * peer 10.4.7.21<43117> with error 12"). A failing job prints such a line per peer and connection,
 * so nearly each one is a text never seen before; what it means does not depend on which peer it
 * names. {@link #lookUp} asks for the text with its addresses masked, so that one answer serves
 * them all, unless that answer quotes digits (a detail that may hold the address itself): then
 * the text's own answer is the one given.
 */
final class PeerAddresses {
  static final String MASK = "0.0.0.0";

  private PeerAddresses() {}

  /**
   * {@code msg} with each dotted-quad address (and its {@code <port>}) replaced by {@link #MASK}
   * (and {@code <0>}); {@code msg} itself, the same object, when it holds none.
   */
  static String masked(String msg) {
    int dot = msg.indexOf('.');
    if (dot < 0) {
      return msg;
    }
    StringBuilder out = null;
    int copied = 0;
    int n = msg.length();
    for (int i = Math.max(0, dot - 3); i < n; i++) {
      if (!isDigit(msg.charAt(i)) || i > 0 && (isDigit(msg.charAt(i - 1)) || msg.charAt(i - 1) == '.')) {
        continue;
      }
      int end = quadEnd(msg, i);
      if (end < 0) {
        continue;
      }
      int portEnd = portEnd(msg, end);
      if (out == null) {
        out = new StringBuilder(n);
      }
      out.append(msg, copied, i).append(MASK);
      if (portEnd > end) {
        out.append("<0>");
        end = portEnd;
      }
      copied = end;
      i = end - 1;
    }
    return out == null ? msg : out.append(msg, copied, n).toString();
  }

  /** End of "d.d.d.d" (1-3 digits each) starting at i, not followed by another digit or ".digit"; -1 if none. */
  private static int quadEnd(String s, int i) {
    int at = i;
    for (int part = 0; part < 4; part++) {
      if (part > 0) {
        if (at >= s.length() || s.charAt(at) != '.') {
          return -1;
        }
        at++;
      }
      int start = at;
      while (at < s.length() && isDigit(s.charAt(at)) && at - start < 4) {
        at++;
      }
      if (at == start || at - start > 3) {
        return -1;
      }
    }
    boolean longer = at < s.length() && (isDigit(s.charAt(at))
        || s.charAt(at) == '.' && at + 1 < s.length() && isDigit(s.charAt(at + 1)));
    return longer ? -1 : at;
  }

  /** End of "<digits>" at i, or i if there is none. */
  private static int portEnd(String s, int i) {
    if (i >= s.length() || s.charAt(i) != '<') {
      return i;
    }
    int at = i + 1;
    while (at < s.length() && isDigit(s.charAt(at))) {
      at++;
    }
    return at > i + 1 && at < s.length() && s.charAt(at) == '>' ? at + 1 : i;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * The meaning of {@code msg} from {@code lookup} (the classification itself, or a memo of it),
   * asked of the masked text first where msg holds an address.
   */
  static <T> T lookUp(String msg, Function<String, T> lookup, Function<T, ErrorSignatures.Outcome> outcome) {
    String key = masked(msg);
    if (key != msg) {
      T t = lookup.apply(key);
      if (!quotesDigits(outcome.apply(t))) {
        return t;
      }
    }
    return lookup.apply(msg);
  }

  /** Whether a text the outcome was read from shows in it (where an address could be). */
  private static boolean quotesDigits(ErrorSignatures.Outcome o) {
    return hasDigit(o.detail()) || hasDigit(o.pluginLoaded());
  }

  private static boolean hasDigit(String s) {
    if (s != null) {
      for (int i = 0; i < s.length(); i++) {
        if (isDigit(s.charAt(i))) {
          return true;
        }
      }
    }
    return false;
  }
}
