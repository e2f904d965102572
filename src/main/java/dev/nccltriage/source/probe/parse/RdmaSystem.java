package dev.nccltriage.source.probe.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code rdma system [show]} (and {@code rdma -j sys}, which most likely prints the same
 * text; a JSON object with a {@code netns} key is accepted too) (probe-formats.md §5). Every
 * output line found is kept in {@code readings}; the top-level fields are those of the
 * <em>last</em> reading (for joined pastes: the latest state). Command lines such as
 * {@code rdma system set netns exclusive} are not readings. Never throws.
 */
public final class RdmaSystem {

  /** The netns mode word: {@code shared}, {@code exclusive}, or {@code unknown} as printed. */
  public enum NetnsMode {
    SHARED,
    EXCLUSIVE,
    UNKNOWN
  }

  /**
   * One output line. {@code netnsRaw} is the word as printed; the Boolean fields are null when
   * the line lacks that token (older iproute2/kernel).
   */
  public record Reading(
      NetnsMode netnsMode,
      String netnsRaw,
      Boolean copyOnFork,
      Boolean privilegedQkey,
      Boolean monitor,
      String line) {}

  /**
   * {@code netnsMode}/{@code copyOnFork} are from the last reading (null if none).
   * {@code unknownObject} is true when {@code Unknown object 'system'.} (iproute2 &lt; 5.3) was
   * seen.
   */
  public record Result(
      NetnsMode netnsMode,
      Boolean copyOnFork,
      Boolean privilegedQkey,
      Boolean monitor,
      boolean unknownObject,
      List<Reading> readings,
      List<String> messages) {
    public Result {
      readings = List.copyOf(readings);
      messages = List.copyOf(messages);
    }
  }

  private static final Pattern NETNS = Pattern.compile("(?:^|[\\s#$>])netns\\s+([A-Za-z_]+)");
  private static final Pattern COMMAND = Pattern.compile("\\b(rdma|set|echo|options)\\b");

  private RdmaSystem() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    List<Reading> readings = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    boolean unknownObject = false;
    try {
      JsonNode obj = Json.findObject(text);
      if (obj != null && obj.has("netns")) {
        readings.add(fromJson(obj));
      } else {
        for (String raw : Text.lines(text)) {
          String line = Text.clean(raw);
          if (line.isEmpty()) {
            continue;
          }
          if (line.contains("Unknown object")) {
            unknownObject = true;
            messages.add(line);
            continue;
          }
          Matcher m = NETNS.matcher(line);
          if (!m.find()) {
            continue;
          }
          if (COMMAND.matcher(line.substring(0, m.start() + 1)).find()) {
            continue; // "$ rdma system set netns exclusive"
          }
          readings.add(fromText(m.group(1), line.substring(m.start()).trim()));
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    Reading last = readings.isEmpty() ? null : readings.get(readings.size() - 1);
    return new Result(
        last == null ? null : last.netnsMode(),
        last == null ? null : last.copyOnFork(),
        last == null ? null : last.privilegedQkey(),
        last == null ? null : last.monitor(),
        unknownObject, readings, messages);
  }

  private static Reading fromText(String netns, String line) {
    String[] t = Text.tokens(line);
    Boolean cof = null;
    Boolean pq = null;
    Boolean mon = null;
    for (int i = 0; i + 1 < t.length; i++) {
      switch (t[i]) {
        case "copy-on-fork" -> cof = onOff(t[i + 1]);
        case "privileged-qkey" -> pq = onOff(t[i + 1]);
        case "monitor" -> mon = onOff(t[i + 1]);
        default -> { }
      }
    }
    return new Reading(mode(netns), netns, cof, pq, mon, line);
  }

  private static Reading fromJson(JsonNode o) {
    String netns = Json.str(o, "netns");
    return new Reading(mode(netns), netns, bool(o.get("copy-on-fork")),
        bool(o.get("privileged-qkey")), bool(o.get("monitor")), o.toString());
  }

  private static Boolean bool(JsonNode v) {
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isBoolean()) {
      return v.booleanValue();
    }
    return v.isNumber() ? v.intValue() != 0 : onOff(v.asText());
  }

  private static Boolean onOff(String s) {
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "on", "true", "1" -> Boolean.TRUE;
      case "off", "false", "0" -> Boolean.FALSE;
      default -> null;
    };
  }

  private static NetnsMode mode(String s) {
    if (s == null) {
      return null;
    }
    return switch (s.toLowerCase(Locale.ROOT)) {
      case "shared" -> NetnsMode.SHARED;
      case "exclusive" -> NetnsMode.EXCLUSIVE;
      default -> NetnsMode.UNKNOWN;
    };
  }
}
