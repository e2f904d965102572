package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code /proc/<pid>/limits} (probe-formats.md §9): every row, with the
 * {@code Max locked memory} row (bytes) exposed directly. Tolerates the trailing padding being
 * stripped, spaces/TABs, a prompt line and joined pastes (the last memlock row wins). Never
 * throws.
 */
public final class ProcLimits {

  /** {@value} stands for {@code unlimited} in {@link Value#value()}. */
  public static final long UNLIMITED = -1L;

  /**
   * One limit value: {@code value} is the number, or {@link #UNLIMITED} when {@code unlimited}
   * is true.
   */
  public record Value(long value, boolean unlimited) {
    static Value of(String s) {
      if (s.equalsIgnoreCase("unlimited")) {
        return new Value(UNLIMITED, true);
      }
      Long v = Text.toLong(s);
      return v == null ? null : new Value(v, false);
    }
  }

  /** One row: {@code name} as printed ({@code Max locked memory}), units may be null. */
  public record Limit(String name, Value soft, Value hard, String units) {}

  /** All rows in order, and the memlock row (null if absent). */
  public record Result(List<Limit> limits, Limit memlock) {
    public Result {
      limits = List.copyOf(limits);
    }

    /** Memlock soft limit in bytes, {@link #UNLIMITED} for unlimited, null when absent. */
    public Long memlockSoftBytes() {
      return memlock == null || memlock.soft() == null ? null : memlock.soft().value();
    }

    /** Memlock hard limit in bytes, {@link #UNLIMITED} for unlimited, null when absent. */
    public Long memlockHardBytes() {
      return memlock == null || memlock.hard() == null ? null : memlock.hard().value();
    }
  }

  private static final Pattern ROW = Pattern.compile(
      "^(Max [A-Za-z ]*?[a-z])\\s+(unlimited|\\d+)\\s+(unlimited|\\d+)(?:\\s+(\\S+))?\\s*$");

  private ProcLimits() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    List<Limit> limits = new ArrayList<>();
    Limit memlock = null;
    try {
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        int at = line.indexOf("Max ");
        if (at < 0 || line.length() > 1000) {
          continue;
        }
        Matcher m = ROW.matcher(line.substring(at));
        if (!m.matches()) {
          continue;
        }
        Limit l = new Limit(m.group(1).trim().replaceAll("\\s+", " "), Value.of(m.group(2)),
            Value.of(m.group(3)), m.group(4));
        limits.add(l);
        if (l.name().equals("Max locked memory")) {
          memlock = l;
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(limits, memlock);
  }
}
