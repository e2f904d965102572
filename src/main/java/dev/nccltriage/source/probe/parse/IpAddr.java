package dev.nccltriage.source.probe.parse;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code ip addr} text and {@code ip -j addr} JSON (probe-formats.md §6). Tolerates
 * flattened or added indentation, a prompt line, {@code eth0@if7} / {@code tunl0@NONE} /
 * {@code macvlan0@eth0} names, {@code link/infiniband} 20-byte addresses and {@code altname}
 * lines. Never throws.
 */
public final class IpAddr {

  /**
   * One address. {@code family} is {@code inet} or {@code inet6}; {@code prefixLen} is null when
   * the line had no {@code /len}; {@code label} is the trailing interface label of an
   * {@code inet} line (e.g. {@code eth0}, {@code eth0:1}), or null.
   */
  public record Address(
      String family, String address, Integer prefixLen, String scope, String label) {}

  /**
   * One interface. {@code name} never contains {@code @}. {@code peerIfindex} is N of
   * {@code @ifN} (JSON {@code link_index}): the parent is in another netns (a Pod veth).
   * {@code parent} is the parent's name for {@code @name} (JSON {@code link}); {@code @NONE}
   * gives both null. {@code state} is the operstate word ({@code UP}, {@code DOWN},
   * {@code UNKNOWN}, {@code LOWERLAYERDOWN}); {@code linkType} is the word after {@code link/}
   * ({@code ether}, {@code infiniband}, {@code loopback}, {@code ipip}, {@code none}, ...);
   * {@code mac} the address after it. {@code index} is null when the number does not fit an int
   * (an unusual value: the interface is kept, its index unknown).
   */
  public record Interface(
      Integer index,
      String name,
      Integer peerIfindex,
      String parent,
      List<String> flags,
      Integer mtu,
      String state,
      String master,
      String linkType,
      String mac,
      Integer linkNetnsid,
      List<String> altnames,
      List<Address> addresses) {
    public Interface {
      flags = List.copyOf(flags);
      altnames = List.copyOf(altnames);
      addresses = List.copyOf(addresses);
    }
  }

  /** The interfaces in output order; {@code json} tells which form was read. */
  public record Result(List<Interface> interfaces, boolean json) {
    public Result {
      interfaces = List.copyOf(interfaces);
    }

    /** The interface with this name (without {@code @...}), or null. */
    public Interface byName(String name) {
      return interfaces.stream().filter(i -> i.name().equals(name)).findFirst().orElse(null);
    }
  }

  private static final Pattern HEAD =
      Pattern.compile("(?:^|\\s)(\\d+):\\s+([^\\s:@]+)(?:@([^\\s:]*))?:\\s+<([^>]*)>(.*)$");
  private static final Pattern LINK = Pattern.compile("^link/(\\S+)(?:\\s+(\\S+))?(.*)$");
  private static final Pattern ADDR = Pattern.compile("^(inet6?)\\s+(\\S+)(.*)$");
  private static final Pattern IFN = Pattern.compile("^if(\\d+)$");
  private static final Set<String> ADDR_FLAGS = Set.of(
      "dynamic", "noprefixroute", "mngtmpaddr", "secondary", "temporary", "tentative",
      "deprecated", "permanent", "home", "nodad", "optimistic", "dadfailed", "stable-privacy",
      "autojoin", "primary");

  private IpAddr() {}

  /** Parses text or JSON; never throws, never returns null. */
  public static Result parse(String text) {
    List<Interface> out = new ArrayList<>();
    try {
      JsonNode array = Json.findArray(text);
      if (array != null) {
        parseJson(array, out);
        return new Result(out, true);
      }
      parseText(text, out);
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(out, false);
  }

  private static void parseJson(JsonNode array, List<Interface> out) {
    for (JsonNode o : array) {
      if (!o.isObject()) {
        continue;
      }
      String name = Json.str(o, "ifname");
      if (name == null || !o.has("ifindex")) {
        continue;
      }
      Integer index = Json.integer(o, "ifindex"); // null when it does not fit: kept, unknown
      List<String> flags = strings(o.get("flags"));
      List<String> alt = strings(o.get("altnames"));
      List<Address> addrs = new ArrayList<>();
      JsonNode ai = o.get("addr_info");
      if (ai != null && ai.isArray()) {
        for (JsonNode a : ai) {
          if (!a.isObject() || Json.str(a, "local") == null) {
            continue;
          }
          addrs.add(new Address(Json.str(a, "family"), Json.str(a, "local"),
              Json.integer(a, "prefixlen"), Json.str(a, "scope"), Json.str(a, "label")));
        }
      }
      String parent = Json.str(o, "link");
      out.add(new Interface(index, name, Json.integer(o, "link_index"), parent, flags,
          Json.integer(o, "mtu"), Json.str(o, "operstate"), Json.str(o, "master"),
          Json.str(o, "link_type"), Json.str(o, "address"), Json.integer(o, "link_netnsid"),
          alt, addrs));
    }
  }

  private static List<String> strings(JsonNode n) {
    List<String> out = new ArrayList<>();
    if (n != null && n.isArray()) {
      for (JsonNode e : n) {
        if (e.isValueNode() && !e.isNull()) {
          out.add(e.asText());
        }
      }
    }
    return out;
  }

  private static void parseText(String text, List<Interface> out) {
    B cur = null;
    for (String raw : Text.lines(text)) {
      String line = Text.clean(raw);
      if (line.isEmpty()) {
        continue;
      }
      Matcher h = HEAD.matcher(line);
      if (h.find()) {
        cur = flush(out, cur);
        cur = new B(Text.toInt(h.group(1)), h.group(2)); // an index that does not fit is unknown (null)
        String at = h.group(3);
        if (at != null && !at.isEmpty() && !at.equals("NONE")) {
          Matcher ifn = IFN.matcher(at);
          if (ifn.matches()) {
            cur.peerIfindex = Text.toInt(ifn.group(1));
          } else {
            cur.parent = at;
          }
        }
        for (String f : h.group(4).split(",")) {
          if (!f.isBlank()) {
            cur.flags.add(f.trim());
          }
        }
        String[] t = Text.tokens(h.group(5));
        for (int i = 0; i + 1 < t.length; i++) {
          switch (t[i]) {
            case "mtu" -> cur.mtu = Text.toInt(t[++i]);
            case "state" -> cur.state = t[++i];
            case "master" -> cur.master = t[++i];
            default -> { }
          }
        }
        continue;
      }
      if (cur == null) {
        continue;
      }
      Matcher l = LINK.matcher(line);
      if (l.matches()) {
        cur.linkType = l.group(1);
        String mac = l.group(2);
        cur.mac = mac == null || mac.equals("brd") ? null : mac;
        String[] t = Text.tokens(l.group(3));
        for (int i = 0; i + 1 < t.length; i++) {
          if (t[i].equals("link-netnsid")) {
            cur.linkNetnsid = Text.toInt(t[i + 1]);
          }
        }
        continue;
      }
      if (line.startsWith("altname ")) {
        String[] t = Text.tokens(line);
        if (t.length > 1) {
          cur.altnames.add(t[1]);
        }
        continue;
      }
      Matcher a = ADDR.matcher(line);
      if (a.matches()) {
        cur.addresses.add(address(a.group(1), a.group(2), a.group(3)));
      }
    }
    flush(out, cur);
  }

  private static Address address(String family, String cidr, String rest) {
    String addr = cidr;
    Integer len = null;
    int slash = cidr.indexOf('/');
    if (slash >= 0) {
      addr = cidr.substring(0, slash);
      len = Text.toInt(cidr.substring(slash + 1));
    }
    String[] t = Text.tokens(rest);
    String scope = null;
    String label = null;
    int scopeAt = -1;
    for (int i = 0; i < t.length; i++) {
      if (t[i].equals("peer") && i + 1 < t.length && len == null) {
        int s = t[i + 1].indexOf('/');
        if (s >= 0) {
          len = Text.toInt(t[i + 1].substring(s + 1));
        }
      }
      if (t[i].equals("scope") && i + 1 < t.length) {
        scope = t[i + 1];
        scopeAt = i + 1;
      }
    }
    if (family.equals("inet") && scopeAt >= 0 && scopeAt + 1 < t.length) {
      String last = t[t.length - 1];
      if (!ADDR_FLAGS.contains(last)) {
        label = last;
      }
    }
    return new Address(family, addr, len, scope, label);
  }

  private static B flush(List<Interface> out, B b) {
    if (b != null) {
      out.add(new Interface(b.index, b.name, b.peerIfindex, b.parent, b.flags, b.mtu, b.state,
          b.master, b.linkType, b.mac, b.linkNetnsid, b.altnames, b.addresses));
    }
    return null;
  }

  private static final class B {
    final Integer index;
    final String name;
    Integer peerIfindex;
    String parent;
    final List<String> flags = new ArrayList<>();
    Integer mtu;
    String state;
    String master;
    String linkType;
    String mac;
    Integer linkNetnsid;
    final List<String> altnames = new ArrayList<>();
    final List<Address> addresses = new ArrayList<>();

    B(Integer index, String name) {
      this.index = index;
      this.name = name;
    }
  }
}
