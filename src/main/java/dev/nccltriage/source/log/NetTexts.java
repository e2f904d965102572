package dev.nccltriage.source.log;

import dev.nccltriage.facts.Hca;
import dev.nccltriage.facts.Iface;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The HCA lists and interfaces in NCCL's network lines ("NET/IB : Using [0]mlx5_0:1/IB ...; OOB
 * eth0:10.0.0.1<0>", "Bootstrap : Using eth0:..."). Every process of a node prints the same text,
 * so results are remembered by text (bounded; the values are immutable, so sharing is safe).
 */
final class NetTexts {
  private static final Pattern IB_USING =
      Pattern.compile("^NET/IB ?: Using(.*?) ?(\\[RO\\])?; ?OOB ?(.*)$");
  private static final Pattern HCA_ENTRY =
      Pattern.compile(
          "\\[(\\d+)\\] ?([^\\s:\\[\\]={},]+):(\\d+)(?::\\d*)?(?::\\d+)?/(IB|RoCE|UNSPECIFIED)");
  private static final Pattern MERGED = Pattern.compile("\\[(\\d+)\\]=\\{([^{}]*)\\}"); // no '{' inside: linear
  private static final Pattern IPV4_IFACE =
      Pattern.compile("^(.+):(\\d{1,3}(?:\\.\\d{1,3}){3})(?:<\\d+>)?$");
  private static final Pattern ANY_IFACE = Pattern.compile("^([^:]+)(?::(.+?))?(?:<\\d+>)?$");
  // Memos that start over when full: one that stopped adding at its limit made every later new
  // text cost its expressions twice (the route, then the parse), 14 MB/s on a log of distinct ones
  private static final int MEMO_LIMIT = 4096;
  private static final IbUsing NOT_IB_USING = new IbUsing(List.of(), false, null, "");
  private static final Iface NO_IFACE = new Iface("", null);

  private final TextMemo<IbUsing> ibUsingSeen = new TextMemo<>(MEMO_LIMIT, this::ibUsingOf);
  private final TextMemo<Iface> ifaceSeen = new TextMemo<>(MEMO_LIMIT, s -> {
    Iface f = iface(s);
    return f == null ? NO_IFACE : f;
  });
  private final TextMemo<List<Hca>> hcaListSeen = new TextMemo<>(MEMO_LIMIT, NetTexts::hcas);

  private static final Pattern BOOTSTRAP = Pattern.compile("^Bootstrap ?: Using (?:\\[\\d+\\])?(\\S+)(.*)$");
  private static final Pattern SOCKET_USING = Pattern.compile("^NET/Socket ?: Using");
  // one entry at a time: a repeated group, (?: \[\d+\]\S+)+, recurses once per entry in
  // java.util.regex, and a hostile line of thousands of entries overflowed the stack
  private static final Pattern SOCKET_NEXT = Pattern.compile(" \\[\\d+\\]\\S+");
  private static final Pattern SOCKET_ENTRY = Pattern.compile("\\[\\d+\\](\\S+)");
  private static final Iface[] NOT_LISTED = new Iface[0]; // a text that is not the line looked for
  private final TextMemo<Iface[]> socketSeen = new TextMemo<>(16384, this::socketOf);
  private final TextMemo<Iface[]> bootstrapSeen = new TextMemo<>(16384, this::bootstrapOf);

  /** {@code evidenceValue}: what tells a node apart, the number of HCAs and the OOB interface. */
  record IbUsing(List<Hca> hcas, boolean relaxedOrdering, Iface oob, String evidenceValue) {
    IbUsing(List<Hca> hcas, boolean relaxedOrdering, Iface oob) {
      this(hcas, relaxedOrdering, oob, hcas.size() + (oob == null ? "" : " " + oob.name()));
    }
  }

  /**
   * "NET/IB : Using [0]mlx5_0:1/IB ... ; OOB eth0:..." parsed, or null. Every process of a node
   * prints the same line, once per process (thousands in an elastic job's log): remembered by text.
   */
  IbUsing ibUsing(String msg) {
    // IB_USING's start, "NET/IB : Using" or "NET/IB: Using": other NET/IB texts (a failing job's
    // errors, each naming a new peer) are not remembered
    if (!msg.startsWith("NET/IB") || !msg.startsWith(" : Using", 6) && !msg.startsWith(": Using", 6)) {
      return null;
    }
    IbUsing u = ibUsingSeen.get(msg);
    return u == NOT_IB_USING ? null : u;
  }

  private IbUsing ibUsingOf(String msg) {
    if (!msg.contains("OOB")) {
      return NOT_IB_USING; // the anchored expression's literal parts: no match without them
    }
    Matcher m = IB_USING.matcher(msg);
    if (!m.lookingAt()) {
      return NOT_IB_USING;
    }
    // the HCA list is alike on every node of a job (the OOB address after it is not): kept by text
    return new IbUsing(hcaListSeen.get(m.group(1)), m.group(2) != null, ifaceOf(m.group(3).trim()));
  }

  static List<Hca> hcas(String list) {
    List<Hca> out = new ArrayList<>();
    Matcher merged = MERGED.matcher(list);
    StringBuilder rest = new StringBuilder();
    int last = 0;
    while (merged.find()) {
      List<Hca> ports = new ArrayList<>();
      Matcher e = HCA_ENTRY.matcher(merged.group(2));
      while (e.find()) {
        Hca h = entry(e);
        if (h != null) {
          ports.add(h);
        }
      }
      String name = ports.isEmpty() ? "merged" : ports.get(0).name();
      Integer index = Bytes.intOrNull(merged.group(1));
      if (index != null) { // an index out of range is a garbled entry, not an HCA
        out.add(new Hca(index, name, ports.isEmpty() ? 0 : ports.get(0).port(),
            ports.isEmpty() ? null : ports.get(0).linkLayer(), ports));
      }
      rest.append(list, last, merged.start());
      last = merged.end();
    }
    rest.append(list.substring(last));
    Matcher e = HCA_ENTRY.matcher(rest);
    while (e.find()) {
      Hca h = entry(e);
      if (h != null) {
        out.add(h);
      }
    }
    out.sort(java.util.Comparator.comparingInt(Hca::index));
    return List.copyOf(out.size() > ProcessState.MAX_HCAS ? out.subList(0, ProcessState.MAX_HCAS) : out);
  }

  /** One "[i]dev:port/LL" entry; null when the index or port does not fit an int (a garbled line). */
  private static Hca entry(Matcher e) {
    Integer index = Bytes.intOrNull(e.group(1));
    Integer port = Bytes.intOrNull(e.group(3));
    return index == null || port == null ? null : new Hca(index, e.group(2), port, e.group(4), null);
  }

  /** {@link #iface}, remembered by text; null when the text names no interface. */
  Iface ifaceOf(String s) {
    Iface f = ifaceSeen.get(s);
    return f == NO_IFACE ? null : f;
  }

  /** The interface in "name:address<port>", or null when no name is there (an empty "; OOB :"). */
  static Iface iface(String s) {
    String t = s.strip();
    if (t.isEmpty() || t.charAt(0) == ':' || t.charAt(0) == '<') {
      return null;
    }
    Matcher m = IPV4_IFACE.matcher(s);
    if (m.find()) {
      return new Iface(m.group(1), m.group(2));
    }
    m = ANY_IFACE.matcher(s);
    if (m.find()) {
      return new Iface(m.group(1), m.group(2));
    }
    return new Iface(s, null);
  }

  /**
   * The interfaces of "Bootstrap : Using if:addr<port> [1]if2:...", the first one first (it may be
   * null), or null when the text is not that line. Every rank of a node prints the same line at
   * each start: remembered by text (bounded).
   */
  Iface[] bootstrapIfaces(String msg) {
    Iface[] known = bootstrapSeen.get(msg);
    return known == NOT_LISTED ? null : known;
  }

  private Iface[] bootstrapOf(String msg) {
    Matcher m = BOOTSTRAP.matcher(msg);
    if (!m.lookingAt()) {
      return NOT_LISTED;
    }
    List<Iface> all = new ArrayList<>();
    all.add(ifaceOf(m.group(1)));
    Matcher rest = SOCKET_ENTRY.matcher(m.group(2));
    while (rest.find()) {
      all.add(ifaceOf(rest.group(1)));
    }
    return all.toArray(new Iface[0]);
  }

  /** The interfaces of "NET/Socket : Using [0]if:addr<port> ...", null if not that line; by text. */
  Iface[] socketIfaces(String msg) {
    Iface[] known = socketSeen.get(msg);
    return known == NOT_LISTED ? null : known;
  }

  private Iface[] socketOf(String msg) {
    Matcher m = SOCKET_USING.matcher(msg);
    if (!m.lookingAt()) {
      return NOT_LISTED;
    }
    int from = m.end();
    int end = from;
    Matcher next = SOCKET_NEXT.matcher(msg);
    while (next.region(end, msg.length()).lookingAt()) {
      end = next.end();
    }
    if (end == from) {
      return NOT_LISTED;
    }
    List<Iface> ifs = new ArrayList<>();
    Matcher e = SOCKET_ENTRY.matcher(msg).region(from, end);
    while (e.find()) {
      Iface f = ifaceOf(e.group(1));
      if (f != null) {
        ifs.add(f);
      }
    }
    return ifs.toArray(new Iface[0]);
  }

}
