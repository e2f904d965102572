package dev.nccltriage.source.probe.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code rdma link [show]} text (current {@code link mlx5_0/1 ...} format and the old
 * {@code 4/1: mlx5_3/1: ...} format, including its {@code -d} line break before {@code state})
 * and {@code rdma -j link} JSON (old {@code "ifname": "mlx5_0/1"} and new {@code "ifname":
 * "mlx5_0", "port": 1}) (probe-formats.md §4). Anchors on tokens, not columns. Never throws.
 */
public final class RdmaLink {

  /**
   * One RDMA port. {@code netdev} is null when the line had none (in a Pod: the netdev is in
   * another netns). IB-only fields ({@code subnetPrefix}, {@code lid}, {@code smLid}) are null
   * on RoCE lines. {@code ifindex} is the RDMA device index of the old format / JSON, else null.
   * {@code port} is null when the number does not fit an int: the link is kept, its port unknown,
   * and an unknown port matches no other port.
   */
  public record Link(
      String dev,
      Integer port,
      String state,
      String physicalState,
      String netdev,
      Integer netdevIndex,
      String subnetPrefix,
      Integer lid,
      Integer smLid,
      Integer ifindex) {}

  /** The links in input order (joined pastes may repeat a port); {@code messages} as printed. */
  public record Result(List<Link> links, List<String> messages) {
    public Result {
      links = List.copyOf(links);
      messages = List.copyOf(messages);
    }
  }

  private static final Pattern NEW_HEAD =
      Pattern.compile("(?:^|[\\s#$>])link\\s+([^\\s/]+)/(\\d+)(?=\\s|$)");
  private static final Pattern OLD_HEAD =
      Pattern.compile("(?:^|\\s)(\\d+)/(\\d+):\\s+([^\\s/]+)/(\\d+):?(?=\\s|$)");

  private static final Pattern DIGITS = Pattern.compile("\\d+");

  private RdmaLink() {}

  /** Parses text or JSON output; never throws, never returns null. */
  public static Result parse(String text) {
    List<Link> links = new ArrayList<>();
    List<String> messages = new ArrayList<>();
    try {
      JsonNode json = Json.findArray(text);
      if (json != null) {
        parseJson(json, links);
        return new Result(links, messages);
      }
      parseText(text, links, messages);
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(links, messages);
  }

  private static void parseJson(JsonNode array, List<Link> out) {
    for (JsonNode o : array) {
      if (!o.isObject()) {
        continue;
      }
      String ifname = Json.str(o, "ifname");
      if (ifname == null) {
        continue;
      }
      String dev = ifname;
      boolean hasPort = o.has("port") && !o.get("port").isNull();
      Integer port = Json.integer(o, "port");
      int slash = ifname.indexOf('/');
      if (slash >= 0) {
        dev = ifname.substring(0, slash);
        if (!hasPort) {
          hasPort = DIGITS.matcher(ifname.substring(slash + 1)).matches();
          port = Text.toInt(ifname.substring(slash + 1));
        }
      }
      // a port number that does not fit an int keeps the link, its port unknown (null)
      if (dev.isEmpty() || !hasPort) {
        continue;
      }
      out.add(new Link(dev, port, Json.str(o, "state"), Json.str(o, "physical_state"),
          Json.str(o, "netdev"), Json.integer(o, "netdev_index"), Json.str(o, "subnet_prefix"),
          Json.integer(o, "lid"), Json.integer(o, "sm_lid"), Json.integer(o, "ifindex")));
    }
  }

  private static void parseText(String text, List<Link> out, List<String> messages) {
    B cur = null;
    for (String raw : Text.lines(text)) {
      String line = Text.clean(raw);
      if (line.isEmpty() || Text.isFence(raw)) {
        continue;
      }
      Matcher n = NEW_HEAD.matcher(line);
      Matcher o = OLD_HEAD.matcher(line);
      if (o.find()) {
        cur = flush(out, cur);
        cur = new B(o.group(3), Text.toInt(o.group(4)), Text.toInt(o.group(1)));
        cur.tokens(line.substring(o.end()));
      } else if (n.find()) {
        cur = flush(out, cur);
        cur = new B(n.group(1), Text.toInt(n.group(2)), null);
        cur.tokens(line.substring(n.end()));
      } else if (cur != null && cur.state == null && line.matches("^state\\s+\\S+.*")) {
        cur.tokens(line); // old -d format: "\tstate ACTIVE physical_state LINK_UP"
      } else if (line.startsWith("caps:") || line.matches("^[A-Z0-9_, ]+>?,?$")) {
        continue; // caps and their wrapped continuation lines
      } else if (isMessage(line)) {
        messages.add(line);
      }
    }
    flush(out, cur);
  }

  private static boolean isMessage(String line) {
    return line.contains("Unknown object")
        || line.contains("Wrong device name")
        || line.contains("Wrong port")
        || line.contains("error")
        || line.contains("Error")
        || line.contains("command not found")
        || line.contains("not found");
  }

  private static B flush(List<Link> out, B b) {
    if (b != null) { // the heads match digits only: a null port is one that does not fit an int
      out.add(new Link(b.dev, b.port, b.state, b.phys, b.netdev, b.netdevIndex, b.subnetPrefix,
          b.lid, b.smLid, b.ifindex));
    }
    return null;
  }

  private static final class B {
    final String dev;
    final Integer port;
    final Integer ifindex;
    String state;
    String phys;
    String netdev;
    Integer netdevIndex;
    String subnetPrefix;
    Integer lid;
    Integer smLid;

    B(String dev, Integer port, Integer ifindex) {
      this.dev = dev;
      this.port = port;
      this.ifindex = ifindex;
    }

    void tokens(String rest) {
      String[] t = Text.tokens(rest);
      for (int i = 0; i + 1 < t.length; i++) {
        String v = t[i + 1];
        boolean used = true;
        switch (t[i]) {
          case "state" -> state = v;
          case "physical_state" -> phys = v;
          case "netdev" -> netdev = v;
          case "netdev_index" -> netdevIndex = Text.toInt(v);
          case "subnet_prefix" -> subnetPrefix = v;
          case "lid" -> lid = Text.toIntAnyBase(v);
          case "sm_lid" -> smLid = Text.toIntAnyBase(v);
          default -> used = false;
        }
        if (used) {
          i++;
        }
      }
    }
  }
}
