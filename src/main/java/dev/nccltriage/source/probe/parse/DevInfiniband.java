package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a listing of {@code /dev/infiniband} as {@code ls -l}, {@code ls -al}, {@code ll} or
 * plain {@code ls} text (probe-formats.md §1). When the text holds several listings
 * ({@code ls -l /dev/infiniband /sys/class/infiniband}, or several prompt + command blocks),
 * only the {@code /dev/infiniband} one counts; a text with no header and no command is taken
 * as that listing. TUI borders and trailing padding are tolerated. Never throws.
 */
public final class DevInfiniband {

  /**
   * One entry. {@code type} is the first character of the {@code ls -l} mode ({@code 'c'},
   * {@code 'd'}, {@code 'l'}, {@code '-'}), or {@code '?'} for plain {@code ls};
   * {@code major}/{@code minor} are null unless it is a device line; {@code mode} is the mode
   * string or null.
   */
  public record Entry(String name, char type, String mode, Integer major, Integer minor) {}

  /**
   * Entries in listing order ({@code .}/{@code ..} dropped) and the names sorted by kind (in
   * listing order). {@code directories} are subdirectories such as {@code by-ibdev}.
   * {@code messages} keeps lines such as {@code ls: cannot access ...: No such file or directory}.
   */
  public record Result(
      List<Entry> entries,
      List<String> uverbs,
      List<String> umad,
      List<String> issm,
      boolean rdmaCm,
      List<String> directories,
      List<String> others,
      List<String> messages) {
    public Result {
      entries = List.copyOf(entries);
      uverbs = List.copyOf(uverbs);
      umad = List.copyOf(umad);
      issm = List.copyOf(issm);
      directories = List.copyOf(directories);
      others = List.copyOf(others);
      messages = List.copyOf(messages);
    }
  }

  private static final Pattern LONG = Pattern.compile(
      "^([-dlcbps])([-rwxsStT]{9})[.+@]?\\s+\\d+\\s+\\S+\\s+\\S+\\s+(?:(\\d+),\\s*(\\d+)|\\S+)\\s+"
          + "(?:\\S+\\s+\\S+\\s+\\S+|\\d{4}-\\d\\d-\\d\\d\\s+\\S+)\\s+(.+)$");
  private static final Pattern HEADER = Pattern.compile("^(/\\S*):$");
  private static final Pattern COMMAND = Pattern.compile(
      "^(?:.*?[#$%>]\\s*)?(ls|ll|la|dir|cat|ibv_devices|ibv_devinfo|rdma|ip|find|tree)\\b(.*)$");
  private static final Pattern PROMPT = Pattern.compile("^(?:\\S*[#$%>]|[#$%>])\\s+\\S.*$");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.\\-]*/?");
  private static final Pattern KNOWN =
      Pattern.compile("(?:uverbs\\d+|umad\\d+|issm\\d+|rdma_cm|by-ibdev|by-path)/?");
  private static final Pattern UVERBS = Pattern.compile("uverbs\\d+");
  private static final Pattern UMAD = Pattern.compile("umad\\d+");
  private static final Pattern ISSM = Pattern.compile("issm\\d+");

  private DevInfiniband() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    List<Entry> entries = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    try {
      // null = no header/command seen yet (take the text as the listing)
      Boolean relevant = null;
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        if (line.isEmpty() || Text.isFence(raw) || Text.isPasteSeparator(line)) {
          continue;
        }
        if (line.contains("No such file or directory") || line.contains("cannot access")
            || line.contains("Permission denied")) {
          messages.add(line);
          continue;
        }
        Matcher h = HEADER.matcher(line);
        if (h.matches()) {
          relevant = isDevInfiniband(h.group(1));
          continue;
        }
        Matcher lm = LONG.matcher(line);
        if (lm.matches()) {
          if (relevant == null || relevant) {
            longEntry(lm, entries);
          }
          continue;
        }
        Matcher c = COMMAND.matcher(line);
        if (c.matches() && (PROMPT.matcher(line).matches() || c.start(1) == 0)) {
          String cmd = c.group(1);
          boolean ls = cmd.equals("ls") || cmd.equals("ll") || cmd.equals("la")
              || cmd.equals("dir");
          relevant = ls && lastPathIsDevIb(c.group(2));
          continue;
        }
        if (line.startsWith("total ")) {
          continue;
        }
        if (relevant != null && !relevant) {
          continue;
        }
        String[] t = Text.tokens(line);
        boolean allNames = t.length > 0;
        boolean known = false;
        for (String s : t) {
          if (!NAME.matcher(s).matches()) {
            allNames = false;
            break;
          }
          known |= KNOWN.matcher(s).matches();
        }
        if (!allNames || !known) {
          continue;
        }
        for (String s : t) {
          boolean dir = s.endsWith("/");
          String n = dir ? s.substring(0, s.length() - 1) : s;
          if (!n.isEmpty() && !n.equals(".") && !n.equals("..")) {
            entries.add(new Entry(n, dir ? 'd' : '?', null, null, null));
          }
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return classify(entries, messages);
  }

  private static void longEntry(Matcher m, List<Entry> entries) {
    char type = m.group(1).charAt(0);
    String name = m.group(5).trim();
    int arrow = name.indexOf(" -> ");
    if (arrow >= 0) {
      name = name.substring(0, arrow).trim();
    }
    if (name.endsWith("/") && name.length() > 1) {
      name = name.substring(0, name.length() - 1);
    }
    if (name.equals(".") || name.equals("..") || name.isEmpty()) {
      return;
    }
    entries.add(new Entry(name, type, m.group(1) + m.group(2), Text.toInt(m.group(3)),
        Text.toInt(m.group(4))));
  }

  private static Result classify(List<Entry> entries, List<String> messages) {
    List<String> uverbs = new ArrayList<>();
    List<String> umad = new ArrayList<>();
    List<String> issm = new ArrayList<>();
    List<String> dirs = new ArrayList<>();
    List<String> others = new ArrayList<>();
    boolean rdmaCm = false;
    for (Entry e : entries) {
      String n = e.name();
      if (e.type() == 'd' || (e.type() == '?' && (n.equals("by-ibdev") || n.equals("by-path")))) {
        dirs.add(n);
      } else if (UVERBS.matcher(n).matches()) {
        uverbs.add(n);
      } else if (UMAD.matcher(n).matches()) {
        umad.add(n);
      } else if (ISSM.matcher(n).matches()) {
        issm.add(n);
      } else if (n.equals("rdma_cm")) {
        rdmaCm = true;
      } else {
        others.add(n);
      }
    }
    return new Result(entries, uverbs, umad, issm, rdmaCm, dirs, others, messages);
  }

  private static boolean isDevInfiniband(String path) {
    String p = path;
    while (p.length() > 1 && p.endsWith("/")) {
      p = p.substring(0, p.length() - 1);
    }
    return p.equals("/dev/infiniband") || p.endsWith("/dev/infiniband");
  }

  private static boolean lastPathIsDevIb(String args) {
    for (String t : Text.tokens(args)) {
      if (!t.startsWith("-") && isDevInfiniband(t)) {
        return true;
      }
    }
    return false;
  }
}
