package dev.nccltriage.source.log;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The once-per-process "Using" lines of NCCL's network set-up, split into their parts: "NET/IB :
 * Using [0]mlx5_0:1/IB ... [RO]; OOB eth0:10.0.0.1<0>", "Bootstrap : Using eth0:10.0.0.1<0>",
 * "NET/Socket : Using [0]eth0:10.0.0.1<0> [1]...", and the "name:address<port>" interfaces in them.
 *
 * <p>Each host prints its own address in them, so in a large job's start-up most of these texts are
 * new, and the expressions below ran for each (a log of them read 63 MB/s). On printable ASCII
 * (where {@code .}, {@code \S} and {@code $} have their plain meanings: no line terminators, the
 * space the only white space) the text is split by hand with the expression's exact answer, greedy
 * and lazy choices included; any other text is left to the expression.
 */
final class UsingLines {
  private static final Pattern IB_USING = Pattern.compile("^NET/IB ?: Using(.*?) ?(\\[RO\\])?; ?OOB ?(.*)$");
  private static final Pattern BOOTSTRAP = Pattern.compile("^Bootstrap ?: Using (?:\\[\\d+\\])?(\\S+)(.*)$");
  private static final Pattern SOCKET_USING = Pattern.compile("^NET/Socket ?: Using");
  // one entry at a time: a repeated group, (?: \[\d+\]\S+)+, recurses once per entry in
  // java.util.regex, and a hostile line of thousands of entries overflowed the stack
  private static final Pattern SOCKET_NEXT = Pattern.compile(" \\[\\d+\\]\\S+");
  private static final Pattern SOCKET_ENTRY = Pattern.compile("\\[\\d+\\](\\S+)");
  static final Pattern IPV4_IFACE = Pattern.compile("^(.+):(\\d{1,3}(?:\\.\\d{1,3}){3})(?:<\\d+>)?$");
  static final Pattern ANY_IFACE = Pattern.compile("^([^:]+)(?::(.+?))?(?:<\\d+>)?$");

  /** IB_USING's groups: the HCA list, whether "[RO]" was there, and what follows "OOB". */
  record IbParts(String hcaList, boolean relaxedOrdering, String oob) {}

  /** An interface's name and, where one follows a ':', its address (either may be odd). */
  record IfaceParts(String name, String address) {}

  private UsingLines() {}

  /** IB_USING's answer for {@code msg}, or null when it does not match. */
  static IbParts ibUsing(String msg) {
    return plain(msg) ? ibUsingByHand(msg) : ibUsingByExpression(msg);
  }

  static IbParts ibUsingByExpression(String msg) {
    Matcher m = IB_USING.matcher(msg);
    return m.lookingAt() ? new IbParts(m.group(1), m.group(2) != null, m.group(3)) : null;
  }

  static IbParts ibUsingByHand(String msg) {
    int at = msg.startsWith("NET/IB : Using") ? 14 : msg.startsWith("NET/IB: Using") ? 13 : -1;
    if (at < 0) {
      return null;
    }
    // the lazy list ends where the earliest ";" followed by " ?OOB" lets the tail match; an
    // earlier end through a later ";" would put this ";" inside " [RO]", which holds none
    int semi = msg.indexOf(';', at);
    while (semi >= 0 && !msg.startsWith("OOB", semi + 1) && !msg.startsWith(" OOB", semi + 1)) {
      semi = msg.indexOf(';', semi + 1);
    }
    if (semi < 0) {
      return null;
    }
    int end;
    boolean ro = true;
    if (semi - 5 >= at && msg.startsWith(" [RO]", semi - 5)) {
      end = semi - 5;
    } else if (semi - 4 >= at && msg.startsWith("[RO]", semi - 4)) {
      end = semi - 4;
    } else {
      ro = false;
      end = semi - 1 >= at && msg.charAt(semi - 1) == ' ' ? semi - 1 : semi;
    }
    int oob = msg.charAt(semi + 1) == ' ' ? semi + 5 : semi + 4;
    if (oob < msg.length() && msg.charAt(oob) == ' ') {
      oob++;
    }
    return new IbParts(msg.substring(at, end), ro, msg.substring(oob));
  }

  /**
   * The interfaces' texts of "Bootstrap : Using if:addr<port> [1]if2:...", the first one first
   * (BOOTSTRAP's first group, then SOCKET_ENTRY's in the rest), or null when it is not that line.
   */
  static List<String> bootstrap(String msg) {
    return plain(msg) ? bootstrapByHand(msg) : bootstrapByExpression(msg);
  }

  static List<String> bootstrapByExpression(String msg) {
    Matcher m = BOOTSTRAP.matcher(msg);
    if (!m.lookingAt()) {
      return null;
    }
    List<String> out = new ArrayList<>();
    out.add(m.group(1));
    Matcher rest = SOCKET_ENTRY.matcher(m.group(2));
    while (rest.find()) {
      out.add(rest.group(1));
    }
    return out;
  }

  static List<String> bootstrapByHand(String msg) {
    int at = msg.startsWith("Bootstrap : Using ") ? 18 : msg.startsWith("Bootstrap: Using ") ? 17 : -1;
    if (at < 0) {
      return null;
    }
    int n = msg.length();
    int start = at;
    int close = bracketEnd(msg, at, n);
    if (close >= 0 && close + 1 < n && msg.charAt(close + 1) != ' ') {
      start = close + 1; // the optional "[i]" is taken only where a word follows it
    }
    int end = wordEnd(msg, start, n);
    if (end == start) {
      return null;
    }
    List<String> out = new ArrayList<>();
    out.add(msg.substring(start, end));
    entries(msg, end, n, out);
    return out;
  }

  /** The interfaces' texts of "NET/Socket : Using [0]if:addr<port> ...", or null if not that line. */
  static List<String> socket(String msg) {
    return plain(msg) ? socketByHand(msg) : socketByExpression(msg);
  }

  static List<String> socketByExpression(String msg) {
    Matcher m = SOCKET_USING.matcher(msg);
    if (!m.lookingAt()) {
      return null;
    }
    int from = m.end();
    int end = from;
    Matcher next = SOCKET_NEXT.matcher(msg);
    while (next.region(end, msg.length()).lookingAt()) {
      end = next.end();
    }
    if (end == from) {
      return null;
    }
    List<String> out = new ArrayList<>();
    Matcher e = SOCKET_ENTRY.matcher(msg).region(from, end);
    while (e.find()) {
      out.add(e.group(1));
    }
    return out;
  }

  static List<String> socketByHand(String msg) {
    int from = msg.startsWith("NET/Socket : Using") ? 18 : msg.startsWith("NET/Socket: Using") ? 17 : -1;
    if (from < 0) {
      return null;
    }
    int n = msg.length();
    int end = from;
    while (end < n && msg.charAt(end) == ' ') { // " [i]word", one after another
      int close = bracketEnd(msg, end + 1, n);
      int word = close < 0 ? close : wordEnd(msg, close + 1, n);
      if (close < 0 || word == close + 1) {
        break;
      }
      end = word;
    }
    if (end == from) {
      return null;
    }
    List<String> out = new ArrayList<>();
    entries(msg, from, end, out);
    return out;
  }

  /** IPV4_IFACE's groups for an interface text, or null when it does not match. */
  static IfaceParts ipv4(String s) {
    return plain(s) ? ipv4ByHand(s) : ifaceByExpression(IPV4_IFACE, s);
  }

  static IfaceParts ipv4ByHand(String s) {
    int body = portStart(s);
    int colon = s.lastIndexOf(':', body - 1); // an address holds no ':': only the last one can end the name
    return colon >= 1 && dottedQuad(s, colon + 1, body)
        ? new IfaceParts(s.substring(0, colon), s.substring(colon + 1, body)) : null;
  }

  /** ANY_IFACE's groups for an interface text, or null when it does not match. */
  static IfaceParts anyIface(String s) {
    return plain(s) ? anyIfaceByHand(s) : ifaceByExpression(ANY_IFACE, s);
  }

  /** IPV4_IFACE's or ANY_IFACE's groups, or null when it does not match. */
  static IfaceParts ifaceByExpression(Pattern p, String s) {
    Matcher m = p.matcher(s);
    return m.find() ? new IfaceParts(m.group(1), m.group(2)) : null;
  }

  static IfaceParts anyIfaceByHand(String s) {
    int n = s.length();
    int colon = s.indexOf(':');
    if (colon < 0) {
      return n == 0 ? null : new IfaceParts(s, null); // the greedy name takes it all, "<port>" too
    }
    if (colon == 0 || colon + 1 == n) {
      return null;
    }
    int port = portStart(s);
    int end = port >= colon + 2 ? port : n; // the lazy address stops before "<port>" if it can
    return new IfaceParts(s.substring(0, colon), s.substring(colon + 1, end));
  }

  /** Where a trailing "<digits>" starts, or the text's length when there is none. */
  private static int portStart(String s) {
    int n = s.length();
    int lt = s.lastIndexOf('<');
    if (lt < 0 || lt + 2 >= n || s.charAt(n - 1) != '>') {
      return n;
    }
    for (int i = lt + 1; i < n - 1; i++) {
      if (!digit(s.charAt(i))) {
        return n;
      }
    }
    return lt;
  }

  /** \d{1,3}(?:\.\d{1,3}){3} over exactly [from, to). */
  private static boolean dottedQuad(String s, int from, int to) {
    int i = from;
    for (int part = 0; part < 4; part++) {
      if (part > 0) {
        if (i >= to || s.charAt(i) != '.') {
          return false;
        }
        i++;
      }
      int d = i;
      while (i < to && i - d < 4 && digit(s.charAt(i))) {
        i++;
      }
      if (i == d || i - d > 3) {
        return false;
      }
    }
    return i == to;
  }

  /** SOCKET_ENTRY's finds in [from, to): each "[digits]" with a word after it, the word. */
  private static void entries(String s, int from, int to, List<String> out) {
    int i = s.indexOf('[', from);
    while (i >= 0 && i < to) {
      int close = bracketEnd(s, i, to);
      int word = close < 0 ? close : wordEnd(s, close + 1, to);
      if (close >= 0 && word > close + 1) {
        out.add(s.substring(close + 1, word));
        i = s.indexOf('[', word);
      } else {
        i = s.indexOf('[', i + 1);
      }
    }
  }

  /** The index of the ']' of "[digits]" at {@code at}, or -1. */
  private static int bracketEnd(String s, int at, int to) {
    if (at >= to || s.charAt(at) != '[') {
      return -1;
    }
    int i = at + 1;
    while (i < to && digit(s.charAt(i))) {
      i++;
    }
    return i > at + 1 && i < to && s.charAt(i) == ']' ? i : -1;
  }

  /** The end of the run of non-spaces at {@code at} (at itself if none). */
  private static int wordEnd(String s, int at, int to) {
    int i = at;
    while (i < to && s.charAt(i) != ' ') {
      i++;
    }
    return i;
  }

  private static boolean digit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Printable ASCII only: no line terminator and no white space but the space. */
  static boolean plain(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < ' ' || c > '~') {
        return false;
      }
    }
    return true;
  }
}
