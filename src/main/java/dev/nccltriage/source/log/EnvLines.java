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
  private static final Pattern ENV = Pattern.compile("^(NCCL_[A-Z0-9_]+) set (?:by environment )?to (.*?)$");
  static final String PLUGIN_ENV_TEXT = "Plugin name set by env to ";
  static final Pattern PLUGIN_ENV = Pattern.compile("(?:NET/Plugin ?: )?Plugin name set by env to (\\S+)");
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
    Matcher m = ENV.matcher(msg);
    return m.find() ? entry(m.group(1), m.group(2)) : NOT_ENV;
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
