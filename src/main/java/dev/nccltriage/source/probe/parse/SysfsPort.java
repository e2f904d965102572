package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The files of {@code /sys/class/infiniband/<dev>/ports/<n>/} ({@code state}, {@code phys_state},
 * {@code link_layer}, {@code rate}, {@code lid}, {@code sm_lid}) and the two scripts that print
 * them: {@code ibstatus} (verbatim sysfs values) and {@code ibstat} (its own words:
 * {@code State: Active}, {@code Rate: 200}) (probe-formats.md §3). Never throws.
 */
public final class SysfsPort {

  /**
   * A {@code "<num>: <name>"} value such as {@code 4: ACTIVE} or {@code 5: LinkUp}. For
   * {@code ibstat} words ({@code Active}, {@code Initializing}) {@code num} is the sysfs number
   * of that word, or null if the word is unknown; {@code name} is always as written.
   */
  public record NumName(Integer num, String name) {}

  /**
   * A {@code rate} value: {@code 400 Gb/sec (4X NDR)} → (400.0, 4, "NDR"). {@code ibstat}'s bare
   * {@code Rate: 200} gives (200.0, null, null). Note that RoCE ports use IB speed names too.
   */
  public record Rate(double gbps, Integer width, String speed) {}

  /** Where a {@link Port} was read from. */
  public enum Format {
    SYSFS,
    IBSTATUS,
    IBSTAT
  }

  /**
   * One port. Any field may be null when the output did not show it. {@code baseLid}/{@code
   * smLid} are numbers ({@code 0x0} and {@code 65535} both parse).
   */
  public record Port(
      String dev,
      Integer port,
      String defaultGid,
      Integer baseLid,
      Integer smLid,
      NumName state,
      NumName physState,
      Rate rate,
      String linkLayer,
      Format format) {}

  /** The ports of an {@code ibstatus}/{@code ibstat} text, in order. */
  public record Result(List<Port> ports) {
    public Result {
      ports = List.copyOf(ports);
    }
  }

  private static final Pattern NUM_NAME = Pattern.compile("^(\\d+)\\s*:\\s*(.*)$");
  private static final Pattern RATE =
      Pattern.compile("^(\\d+(?:\\.\\d+)?)\\s*Gb/sec\\s*\\((\\d+)X\\s*([A-Za-z0-9]+)?\\)");
  private static final Pattern BARE_RATE = Pattern.compile("^(\\d+(?:\\.\\d+)?)$");
  private static final Pattern IBSTATUS_HEAD =
      Pattern.compile("Infiniband device '([^']{0,256})' port (\\d+) status:?"); // bounded: linear
  private static final Pattern CA_HEAD = Pattern.compile("^CA '([^']*)'");
  private static final Pattern IBSTAT_PORT = Pattern.compile("^Port (\\d+):$");

  private static final Map<String, Integer> IBSTAT_STATE = Map.of(
      "nop", 0, "down", 1, "initializing", 2, "init", 2, "armed", 3, "active", 4,
      "active_defer", 5, "active defer", 5);
  private static final Map<String, Integer> IBSTAT_PHYS = Map.of(
      "sleep", 1, "polling", 2, "disabled", 3, "portconfigurationtraining", 4, "linkup", 5,
      "linkerrorrecovery", 6, "phy test", 7, "phytest", 7);

  private SysfsPort() {}

  /** {@code state} file: {@code "4: ACTIVE"} → (4, "ACTIVE"); a bare word gives (null, word). */
  public static NumName parseState(String text) {
    return numName(text, IBSTAT_STATE);
  }

  /** {@code phys_state} file: {@code "5: LinkUp"} → (5, "LinkUp"). */
  public static NumName parsePhysState(String text) {
    return numName(text, IBSTAT_PHYS);
  }

  /** {@code link_layer} file: the trimmed word ({@code InfiniBand}, {@code Ethernet}), or null. */
  public static String parseLinkLayer(String text) {
    String t = firstLine(text);
    return t.isEmpty() ? null : Text.tokens(t)[0];
  }

  /** {@code rate} file ({@code 400 Gb/sec (4X NDR)}) or a bare number; null if neither. */
  public static Rate parseRate(String text) {
    String t = firstLine(text);
    Matcher m = RATE.matcher(t);
    if (m.find()) {
      Double gbps = finite(m.group(1));
      return gbps == null ? null : new Rate(gbps, Text.toInt(m.group(2)), m.group(3));
    }
    Matcher b = BARE_RATE.matcher(t);
    if (b.matches()) {
      Double gbps = finite(b.group(1));
      return gbps == null ? null : new Rate(gbps, null, null);
    }
    return null;
  }

  /**
   * The highest port rate taken, in Gb/s: the kernel prints its ib_rate enum's (1600 Gb/s at most
   * today) and Ethernet's fastest port is 1.6 Tb/s, so a rate far above it is a damaged file.
   */
  public static final double MAX_GBPS = 100_000;

  /** A rate of 400 digits reads as infinity, one of 20 as 10^20: no rate (unknown), not a huge one. */
  private static Double finite(String digits) {
    double d = Double.parseDouble(digits);
    return Double.isFinite(d) && d <= MAX_GBPS ? d : null;
  }

  /** {@code lid}/{@code sm_lid} file ({@code 0x0}, {@code 0xffff}) or a decimal, else null. */
  public static Integer parseLid(String text) {
    return Text.toIntAnyBase(firstLine(text));
  }

  /**
   * Builds a port from the contents of its sysfs files (any may be null when unreadable).
   */
  public static Port fromFiles(
      String dev, Integer port, String state, String physState, String rate, String linkLayer,
      String lid, String smLid, String gid0) {
    String g = firstLine(gid0);
    return new Port(dev, port, g.isEmpty() ? null : g, parseLid(lid), parseLid(smLid),
        parseState(state), parsePhysState(physState), parseRate(rate), parseLinkLayer(linkLayer),
        Format.SYSFS);
  }

  /** Parses {@code ibstatus} and/or {@code ibstat} output (joined pastes allowed). */
  public static Result parseIbstatus(String text) {
    List<Port> out = new ArrayList<>();
    B cur = null;
    String ca = null;
    try {
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        if (line.isEmpty() || Text.isFence(raw)) {
          continue;
        }
        Matcher h = IBSTATUS_HEAD.matcher(line);
        if (h.find()) {
          cur = flush(out, cur);
          cur = new B(h.group(1), Text.toInt(h.group(2)), Format.IBSTATUS);
          continue;
        }
        Matcher c = CA_HEAD.matcher(line);
        if (c.find()) {
          cur = flush(out, cur);
          ca = c.group(1);
          continue;
        }
        Matcher p = IBSTAT_PORT.matcher(line);
        if (p.matches()) {
          cur = flush(out, cur);
          cur = new B(ca, Text.toInt(p.group(1)), Format.IBSTAT);
          continue;
        }
        if (Text.isPasteSeparator(line)) {
          cur = flush(out, cur);
          ca = null;
          continue;
        }
        int colon = line.indexOf(':');
        if (cur == null || colon < 0) {
          continue;
        }
        String key = line.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = line.substring(colon + 1).trim();
        cur.put(key, value);
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    flush(out, cur);
    return new Result(out);
  }

  private static B flush(List<Port> out, B b) {
    if (b != null) {
      out.add(b.build());
    }
    return null;
  }

  private static final class B {
    final String dev;
    final Integer port;
    final Format format;
    String gid;
    Integer baseLid;
    Integer smLid;
    NumName state;
    NumName phys;
    Rate rate;
    String linkLayer;

    B(String dev, Integer port, Format format) {
      this.dev = dev;
      this.port = port;
      this.format = format;
    }

    void put(String key, String value) {
      switch (key) {
        case "default gid" -> gid = value.isEmpty() || value.equals("unknown") ? null : value;
        case "base lid" -> baseLid = parseLid(value);
        case "sm lid" -> smLid = parseLid(value);
        case "state" -> state = parseState(value);
        case "phys state", "physical state" -> phys = parsePhysState(value);
        case "rate" -> rate = parseRate(value);
        case "link_layer", "link layer" -> linkLayer = parseLinkLayer(value);
        default -> { }
      }
    }

    Port build() {
      return new Port(dev, port, gid, baseLid, smLid, state, phys, rate, linkLayer, format);
    }
  }

  private static NumName numName(String text, Map<String, Integer> words) {
    String t = firstLine(text);
    if (t.isEmpty()) {
      return null;
    }
    Matcher m = NUM_NAME.matcher(t);
    if (m.matches()) {
      String name = m.group(2).trim();
      return new NumName(Text.toInt(m.group(1)), name.isEmpty() ? null : name);
    }
    if (t.indexOf(':') >= 0 || t.length() > 64) {
      return null;
    }
    Integer n = words.get(t.toLowerCase(Locale.ROOT));
    if (n == null) {
      n = words.get(t.toLowerCase(Locale.ROOT).replace(" ", ""));
    }
    return new NumName(n, t);
  }

  private static String firstLine(String text) {
    for (String l : Text.lines(text)) {
      String t = l.trim();
      if (!t.isEmpty()) {
        return t;
      }
    }
    return "";
  }
}
