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
  private static final Pattern HCA_ENTRY =
      Pattern.compile(
          "\\[(\\d+)\\] ?([^\\s:\\[\\]={},]+):(\\d+)(?::\\d*)?(?::\\d+)?/(IB|RoCE|UNSPECIFIED)");
  private static final Pattern MERGED = Pattern.compile("\\[(\\d+)\\]=\\{([^{}]*)\\}"); // no '{' inside: linear
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
    if (!ibUsingStart(msg)) {
      return null;
    }
    IbUsing u = ibUsingSeen.get(msg);
    return u == NOT_IB_USING ? null : u;
  }

  /** As {@link #ibUsing(String)}, for the text kept in {@code kept} at {@code at}. */
  IbUsing ibUsing(MessageTexts kept, int at, String msg) {
    IbUsing u = ibUsingSeen.held(kept, at);
    if (u == null) {
      if (!ibUsingStart(msg)) {
        return null;
      }
      u = ibUsingSeen.get(kept, at, msg);
    }
    return u == NOT_IB_USING ? null : u;
  }

  /**
   * IB_USING's start, "NET/IB : Using" or "NET/IB: Using": other NET/IB texts (a failing job's
   * errors, each naming a new peer) are not remembered.
   */
  private static boolean ibUsingStart(String msg) {
    return msg.startsWith("NET/IB") && (msg.startsWith(" : Using", 6) || msg.startsWith(": Using", 6));
  }

  private IbUsing ibUsingOf(String msg) {
    if (!msg.contains("OOB")) {
      return NOT_IB_USING; // the anchored expression's literal parts: no match without them
    }
    UsingLines.IbParts m = UsingLines.ibUsing(msg);
    if (m == null) {
      return NOT_IB_USING;
    }
    // the HCA list is alike on every node of a job (the OOB address after it is not): kept by text
    return new IbUsing(hcaListSeen.get(m.hcaList()), m.relaxedOrdering(), ifaceOf(m.oob().trim()));
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
    UsingLines.IfaceParts m = UsingLines.ipv4(s);
    if (m == null) {
      m = UsingLines.anyIface(s);
    }
    return m == null ? new Iface(s, null) : new Iface(m.name(), m.address());
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

  /** As {@link #bootstrapIfaces(String)}, for the text kept in {@code kept} at {@code at}. */
  Iface[] bootstrapIfaces(MessageTexts kept, int at, String msg) {
    Iface[] known = bootstrapSeen.get(kept, at, msg);
    return known == NOT_LISTED ? null : known;
  }

  private Iface[] bootstrapOf(String msg) {
    List<String> listed = UsingLines.bootstrap(msg);
    if (listed == null) {
      return NOT_LISTED;
    }
    Iface[] all = new Iface[listed.size()];
    for (int i = 0; i < all.length; i++) {
      all[i] = ifaceOf(listed.get(i));
    }
    return all;
  }

  /** The interfaces of "NET/Socket : Using [0]if:addr<port> ...", null if not that line; by text. */
  Iface[] socketIfaces(String msg) {
    Iface[] known = socketSeen.get(msg);
    return known == NOT_LISTED ? null : known;
  }

  /** As {@link #socketIfaces(String)}, for the text kept in {@code kept} at {@code at}. */
  Iface[] socketIfaces(MessageTexts kept, int at, String msg) {
    Iface[] known = socketSeen.get(kept, at, msg);
    return known == NOT_LISTED ? null : known;
  }

  private Iface[] socketOf(String msg) {
    List<String> listed = UsingLines.socket(msg);
    if (listed == null) {
      return NOT_LISTED;
    }
    List<Iface> ifs = new ArrayList<>(listed.size());
    for (String text : listed) {
      Iface f = ifaceOf(text);
      if (f != null) {
        ifs.add(f);
      }
    }
    return ifs.toArray(new Iface[0]);
  }
}
