package dev.nccltriage.source.probe.parse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code /proc/sys/kernel/osrelease}, {@code uname -r} or {@code uname -a}
 * ({@code Linux host 5.15.0-91-generic #101 ...}): the first token that starts with
 * {@code <major>.<minor>}. Never throws.
 */
public final class KernelVersion {

  /**
   * {@code raw} is the whole release token ({@code 5.15.0-91-generic}); {@code patch} is null
   * when the release has only two numbers. A result with {@code raw == null} means nothing was
   * found (then major/minor are 0).
   */
  public record Result(int major, int minor, Integer patch, String raw) {
    /** True when a version was found. */
    public boolean found() {
      return raw != null;
    }

    /** True when found and {@code major.minor} is at least the given one (a comparison only). */
    public boolean atLeast(int maj, int min) {
      return found() && (major > maj || (major == maj && minor >= min));
    }
  }

  private static final Pattern RELEASE =
      Pattern.compile("(?:^|\\s)((\\d{1,4})\\.(\\d{1,4})(?!\\d)(?:\\.(\\d{1,6})(?!\\d))?[^\\s]*)");

  private KernelVersion() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    try {
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        Matcher m = RELEASE.matcher(line);
        if (m.find()) {
          return new Result(Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
              m.group(4) == null ? null : Integer.parseInt(m.group(4)), m.group(1));
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(0, 0, null, null);
  }
}
