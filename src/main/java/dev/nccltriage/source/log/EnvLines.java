package dev.nccltriage.source.log;

import dev.nccltriage.evidence.EvidenceList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The settings NCCL echoes ("NCCL_X set by environment to V", "Plugin name set by env to P"), each
 * counted into the accumulator's entry for its name and value. Every process echoes the same
 * texts, so a text is matched once and remembered with its entry.
 */
final class EnvLines {
  // what "^(NCCL_[A-Z0-9_]+) set (?:by environment )?to (.*?)$" matched: the name by the expression,
  // the value to the end by a loop (the expression tried its end after each character of a long value)
  private static final Pattern ENV_HEAD = Pattern.compile("(NCCL_[A-Z0-9_]+) set (?:by environment )?to ");
  static final String PLUGIN_ENV_TEXT = "Plugin name set by env to ";
  // (only the plugin's name is taken: "NET/Plugin : " before it changes no answer, and a literal
  // start lets the search skip ahead instead of trying an optional group at every position)
  static final Pattern PLUGIN_ENV = Pattern.compile("Plugin name set by env to (\\S+)");
  private static final EvidenceList NOT_ENV = new EvidenceList();
  private static final int MEMO = 16384;

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final TextMemo<EvidenceList> seen = new TextMemo<>(MEMO, this::match);

  EnvLines(LogAccumulator acc, EvidenceSlot slot) {
    this.acc = acc;
    this.slot = slot;
  }

  /** Whether the text is "NCCL_X set [by environment] to V". */
  boolean isEnv(String msg) {
    return seen.get(msg) != NOT_ENV;
  }

  /**
   * Counts an env text's line (one that {@link #isEnv} accepted): {@code msg}, kept in {@code kept}
   * at {@code at}.
   */
  void env(MessageTexts kept, int at, String msg) {
    slot.record(seen.get(kept, at, msg));
  }

  /** Whether the text names a net plugin the environment chose. */
  static boolean isPluginEnv(String msg) {
    return msg.contains(PLUGIN_ENV_TEXT) && PLUGIN_ENV.matcher(msg).find();
  }

  /** Counts "Plugin name set by env to P" as NCCL_NET_PLUGIN=P. */
  void pluginEnv(String msg) {
    Matcher pe = PLUGIN_ENV.matcher(msg);
    if (pe.find()) {
      slot.record(entry("NCCL_NET_PLUGIN", pe.group(1)));
    }
  }

  private EvidenceList match(String msg) {
    String[] nv = nameAndValue(msg);
    return nv != null ? entry(nv[0], nv[1]) : NOT_ENV;
  }

  /** The name and the value of "NCCL_X set [by environment] to V", or null. */
  static String[] nameAndValue(String msg) {
    Matcher m = ENV_HEAD.matcher(msg);
    if (!m.lookingAt()) {
      return null;
    }
    int end = valueEnd(msg, m.end());
    return end < 0 ? null : new String[] {m.group(1), msg.substring(m.end(), end)};
  }

  /**
   * Where "(.*?)$" from {@code from} ends its group: at the end, or before a line terminator that
   * ends the text ("$" without MULTILINE); -1 where one comes before ('.' does not match it).
   */
  private static int valueEnd(String s, int from) {
    int n = s.length();
    for (int i = from; i < n; i++) {
      char c = s.charAt(i);
      if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        return i == n - 1 || c == '\r' && i == n - 2 && s.charAt(n - 1) == '\n' ? i : -1;
      }
    }
    return n;
  }

  private EvidenceList entry(String name, String value) {
    String v = value.strip();
    if (v.endsWith(".") && isInteger(v, v.length() - 1)) {
      v = v.substring(0, v.length() - 1);
    }
    return acc.env(name, v);
  }

  /** Whether s[0, end) is "-?digits" (NCCL ends "NCCL_X set by environment to 0." with a dot). */
  private static boolean isInteger(String s, int end) {
    int i = end > 0 && s.charAt(0) == '-' ? 1 : 0;
    if (i == end) {
      return false;
    }
    for (; i < end; i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
