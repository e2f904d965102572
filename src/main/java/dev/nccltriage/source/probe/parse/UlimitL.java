package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the output of {@code ulimit -l} ({@code unlimited} or a number of <b>KiB</b>) and the
 * {@code max locked memory (kbytes, -l) <v>} line of {@code ulimit -a}/{@code -Ha}
 * (probe-formats.md §8). When a prompt line with the command precedes the value, {@code -H} /
 * {@code -S} in it tell which limit was shown. The error {@code ulimit: max locked memory:
 * cannot modify limit: ...} goes to {@code messages}. Prose is not mined for numbers. Never
 * throws.
 */
public final class UlimitL {

  /** Which limit a reading shows, as far as the command line tells. */
  public enum Which {
    SOFT,
    HARD,
    /** No command line was seen before the value. */
    UNSPECIFIED
  }

  /** One value: {@code kib} is null when {@code unlimited}. */
  public record Reading(Long kib, boolean unlimited, Which which) {
    /** Bytes ({@code kib * 1024}), or -1 when unlimited. */
    public long bytes() {
      return unlimited || kib == null ? -1L : kib * 1024L;
    }
  }

  /**
   * All readings in order; {@code kib}/{@code unlimited} repeat the <em>last</em> reading
   * ({@code kib} null and {@code unlimited} false when there is none).
   */
  public record Result(Long kib, boolean unlimited, List<Reading> readings, List<String> messages) {
    public Result {
      readings = List.copyOf(readings);
      messages = List.copyOf(messages);
    }
  }

  private static final Pattern VALUE = Pattern.compile("^(unlimited|\\d{1,18})$");
  private static final Pattern A_LINE =
      Pattern.compile(
          "max locked memory\\s*\\((?:kbytes|KiB|kB)?,?\\s*-l\\)\\s*(unlimited|\\d{1,18})");
  private static final Pattern COMMAND = Pattern.compile("\\bulimit\\s+(-[A-Za-z]+)");

  private UlimitL() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    List<Reading> readings = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    Which which = Which.UNSPECIFIED;
    try {
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        if (line.isEmpty()) {
          continue;
        }
        if (line.contains("cannot modify limit") || line.contains("Operation not permitted")
            || line.contains("invalid")) {
          messages.add(line);
          continue;
        }
        Matcher c = COMMAND.matcher(line);
        if (c.find() && !line.contains("`") && isPromptOrCommand(line, c.start())) {
          String flags = c.group(1);
          which = flags.contains("H") ? Which.HARD : Which.SOFT;
          continue;
        }
        Matcher a = A_LINE.matcher(line);
        if (a.find()) {
          readings.add(reading(a.group(1), which));
          continue;
        }
        if (VALUE.matcher(line).matches()) {
          readings.add(reading(line, which));
          which = Which.UNSPECIFIED;
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    Reading last = readings.isEmpty() ? null : readings.get(readings.size() - 1);
    return new Result(last == null ? null : last.kib(), last != null && last.unlimited(),
        readings, messages);
  }

  private static boolean isPromptOrCommand(String line, int at) {
    String before = line.substring(0, at).trim();
    return before.isEmpty() || before.endsWith("$") || before.endsWith("#")
        || before.endsWith(">") || before.endsWith("%");
  }

  private static Reading reading(String v, Which which) {
    if (v.equals("unlimited")) {
      return new Reading(null, true, which);
    }
    return new Reading(Text.toLong(v), false, which);
  }
}
