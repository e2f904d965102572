package dev.nccltriage.facts;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An NCCL version, compared numerically part by part ("2.9.9" < "2.21"). */
public record Version(int major, int minor, int patch) implements Comparable<Version> {
  private static final Pattern P = Pattern.compile("^(\\d+)\\.(\\d+)(?:\\.(\\d+))?");

  public static Version parse(String s) {
    Matcher m = s == null ? null : P.matcher(s.strip());
    if (m == null || !m.find()) {
      return null;
    }
    try {
      return new Version(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
          m.group(3) == null ? 0 : Integer.parseInt(m.group(3)));
    } catch (NumberFormatException outOfRange) {
      return null; // "2.99999999999.0": not a version anyone runs; unknown, not an error
    }
  }

  @Override
  public int compareTo(Version o) {
    int c = Integer.compare(major, o.major);
    if (c == 0) {
      c = Integer.compare(minor, o.minor);
    }
    return c != 0 ? c : Integer.compare(patch, o.patch);
  }

  @Override
  public String toString() {
    return major + "." + minor + "." + patch;
  }
}
