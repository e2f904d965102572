package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads {@code ldconfig -p}: the libraries the dynamic loader's cache ({@code /etc/ld.so.cache})
 * resolves, one {@code \tname (flags) => path} line each, after a {@code N libs found in cache}
 * header. Lines that do not have that shape are skipped. Never throws.
 */
public final class LdconfigCache {

  /** One cache line: the soname, its flags ({@code libc6,x86-64}, {@code libc6,AArch64}...) and path. */
  public record Entry(String name, String flags, String path) {}

  /**
   * {@code declared} is the header's count (null without a header); {@code header} says whether the
   * text looked like {@code ldconfig -p} output at all (a header or at least one entry).
   */
  public record Result(List<Entry> entries, Integer declared, boolean header) {
    public Result {
      entries = List.copyOf(entries);
    }

    public boolean recognised() {
      return header || !entries.isEmpty();
    }
  }

  private static final Pattern HEADER = Pattern.compile("^(\\d{1,9}) libs? found in cache\\b.*");
  private static final Pattern ENTRY = Pattern.compile("^(\\S+) \\(([^()]*)\\)(?: hwcap: \\S+)? => (/\\S.*)$");
  private static final int MAX_ENTRIES = 100_000;

  private LdconfigCache() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    List<Entry> entries = new ArrayList<>();
    Integer declared = null;
    boolean header = false;
    try {
      for (String raw : Text.lines(text)) {
        String line = raw.strip();
        if (line.length() > 4096) {
          continue;
        }
        Matcher h = HEADER.matcher(line);
        if (h.matches()) {
          header = true;
          declared = Text.toInt(h.group(1));
          continue;
        }
        Matcher m = ENTRY.matcher(line);
        if (m.matches() && entries.size() < MAX_ENTRIES) {
          entries.add(new Entry(m.group(1), m.group(2).strip(), m.group(3).strip()));
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(entries, declared, header);
  }
}
