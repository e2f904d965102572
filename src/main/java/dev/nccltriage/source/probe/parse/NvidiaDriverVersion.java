package dev.nccltriage.source.probe.parse;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code /proc/driver/nvidia/version} (probe-formats.md §13): the {@code NVRM version:}
 * line (also its dmesg form {@code NVRM: loading NVIDIA UNIX ...}) and the {@code GCC version:}
 * line. The flavor comes from the {@code Open Kernel Module} marker of the NVRM line; when there
 * is no NVRM line, a {@code modinfo} {@code license:} line ({@code NVIDIA} vs {@code Dual
 * MIT/GPL}) is used. The first NVRM line found is the one reported. Never throws.
 */
public final class NvidiaDriverVersion {

  /** Which kernel module flavor the text names. */
  public enum Flavor {
    OPEN,
    PROPRIETARY
  }

  /**
   * {@code driverVersion} is null when the version token is not a dotted number (e.g. the
   * README's {@code [...]}). {@code gccVersion} is the version number ({@code 7.2.0}),
   * {@code gccLine} the whole text after {@code GCC version:}. {@code license} is the modinfo
   * license value if such a line was seen. {@code nvrmLine} is the matched line, trimmed.
   */
  public record Result(
      String driverVersion,
      Flavor flavor,
      String arch,
      String gccVersion,
      String gccLine,
      String license,
      String nvrmLine) {}

  private static final Pattern NVRM = Pattern.compile(
      "NVRM(?: version)?:\\s*(?:loading\\s+)?NVIDIA UNIX\\s+"
          + "(?:(Open) Kernel Module for\\s+(\\S+)|(\\S+)\\s+(?:Open\\s+)?Kernel Module)"
          + "\\s*(\\S+)?");
  private static final Pattern GCC = Pattern.compile("GCC version:\\s*(.*)$");
  // the number itself is read by dottedEnd: a repeated group such as (?:\.\d+)+ recurses once
  // per dot in java.util.regex, and a hostile file of 10^5 dots would overflow the stack
  private static final Pattern GCC_NUM = Pattern.compile("\\bgcc version\\s+(?=\\d)");
  private static final Pattern LICENSE = Pattern.compile("^license:\\s*(.+)$");

  private NvidiaDriverVersion() {}

  /** The end of the longest "digits(.digits)*" starting at i (i itself when no digit is there). */
  static int dottedEnd(String s, int i) {
    int end = i;
    int j = i;
    while (true) {
      int d = j;
      while (d < s.length() && s.charAt(d) >= '0' && s.charAt(d) <= '9') {
        d++;
      }
      if (d == j) {
        return end;
      }
      end = d;
      if (d + 1 >= s.length() || s.charAt(d) != '.') {
        return end;
      }
      j = d + 1;
    }
  }

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    String version = null;
    Flavor flavor = null;
    String arch = null;
    String gcc = null;
    String gccLine = null;
    String license = null;
    String nvrmLine = null;
    try {
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        if (line.isEmpty()) {
          continue;
        }
        Matcher n = NVRM.matcher(line);
        if (nvrmLine == null && n.find()) {
          nvrmLine = line.substring(n.start()).trim();
          if (n.group(1) != null) {
            flavor = Flavor.OPEN;
            arch = n.group(2);
          } else {
            flavor = Flavor.PROPRIETARY;
            arch = n.group(3);
          }
          String v = n.group(4);
          version = v != null && dottedEnd(v, 0) == v.length() && v.indexOf('.') > 0 ? v : null;
          continue;
        }
        Matcher g = GCC.matcher(line);
        if (gccLine == null && g.find()) {
          gccLine = g.group(1).trim();
          Matcher gn = GCC_NUM.matcher(gccLine);
          gcc = gn.find() ? gccLine.substring(gn.end(), dottedEnd(gccLine, gn.end())) : null;
          continue;
        }
        Matcher l = LICENSE.matcher(line);
        if (license == null && l.matches()) {
          license = l.group(1).trim();
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    if (flavor == null && license != null) {
      String lc = license.toLowerCase(Locale.ROOT);
      if (lc.contains("mit") || lc.contains("gpl")) {
        flavor = Flavor.OPEN;
      } else if (lc.equals("nvidia")) {
        flavor = Flavor.PROPRIETARY;
      }
    }
    return new Result(version, flavor, arch, gcc, gccLine, license, nvrmLine);
  }
}
