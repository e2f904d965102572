package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;
import java.util.ArrayList;
import java.util.List;

/**
 * A host of the log: its name, once, and the lines kept as its evidence, shared by all processes
 * on it (a job that restarts keeps adding pids; keeping evidence per host bounds it by nodes, not
 * by restarts). Most hosts of a large job keep no lines at all: a kind of line (with what it says,
 * e.g. the network it names) is kept for the first {@link EvidenceBudget#HOSTS} hosts that print
 * it. Evidence is read for the few nodes that differ (a node on sockets among thousands on IB
 * prints what the others do not, so it has lines kept) and for the first lines of the job.
 */
final class HostEvidence {
  static final int COMM = 0;
  static final int NETWORK = 1;
  static final int LOCAL_CHANNELS = 2;
  static final int IB_NO_DEVICE = 3;
  static final int IB_USING = 4;
  static final int SOCKET = 5;
  static final int BOOTSTRAP = 6;
  static final int RINGS_GDR = 7;
  static final int CHANNEL_GDR = 8;
  static final int CHANNEL_NO_GDR = 9;
  static final int VERSION = 10;
  static final int KINDS = 11;
  private static final int KEEP = EvidenceList.KEEP;

  final String name; // null: lines without a host prefix
  final byte[] bytes; // the name as it appears in the log, for the process table
  boolean admitted; // outside the hash sample, told apart for a line that showed something wrong
  private final EvidenceBudget budget;
  private Evidence[] items; // KEEP per kind, in line order; null until one is kept
  private Object[] values; // per kind: what the kept lines said (the budget's key)
  private byte[] counts; // per kind: how many items are kept
  // What the budget refused this host: a refusal is final (a budget only fills up), and a host's
  // lines of a kind repeat one value, so a repeat is one compare. Fields, not an array per host:
  // a log of many hosts holds tens of thousands of these. Bit k of refusedNull: kind k saying
  // nothing; of refusedKinds: kind k saying refusedValue (the first value refused; others are
  // asked of the budget each time).
  private int refusedNull;
  private int refusedKinds;
  private Object refusedValue;
  private Object[] shared; // values its processes printed alike (interfaces), held once

  private static final int SHARED = 4;
  private Object[] decided; // GPUDirect RDMA decision texts applied to this host's keys (GdrMessages)
  // grown from 8 up to 32 on the hosts that print more: a node prints a decision per GPU and NIC
  // pair it uses (10 per node in two of the real logs here). Bounded: a log of 100000 hosts each
  // printing 32 keeps 14 MB of them
  private static final int DECIDED = 8;
  private static final int MAX_DECIDED = 32;

  /**
   * Whether {@code decision} (a remembered decision text) is new to this host, noting it: a
   * host's processes print the same decision lines per connection, and each repeat would build
   * the same per-host key again. Past {@link #MAX_DECIDED} texts every one counts as new.
   */
  boolean firstDecision(Object decision) {
    Object[] d = decided;
    if (d == null) {
      d = decided = new Object[DECIDED];
    }
    int n = d.length;
    for (int i = 0; i < n; i++) {
      if (d[i] == decision) {
        return false;
      }
      if (d[i] == null) {
        d[i] = decision;
        return true;
      }
    }
    if (n < MAX_DECIDED) {
      decided = java.util.Arrays.copyOf(d, 2 * n);
      decided[n] = decision;
    }
    return true;
  }

  HostEvidence(String name, byte[] bytes, EvidenceBudget budget) {
    this.name = name;
    this.bytes = bytes;
    this.budget = budget;
  }

  /**
   * An equal value one of the host's processes printed before, else {@code v}: the ranks of a
   * node print the same interfaces, and a node's eight copies of them would be most of the
   * memory a large job's log needs.
   */
  <T> T share(T v) {
    if (v == null) {
      return null;
    }
    if (shared == null) {
      shared = new Object[SHARED];
    }
    for (int i = 0; i < SHARED; i++) {
      if (shared[i] == null) {
        shared[i] = v;
        return v;
      }
      if (shared[i].equals(v)) {
        @SuppressWarnings("unchecked")
        T same = (T) shared[i];
        return same;
      }
    }
    return v;
  }

  /**
   * Whether a line of this kind saying {@code value} (may be null) is to be kept. Without a budget
   * (the lines of one line's parse, before it is known whose they are) up to KEEP per kind.
   */
  boolean wants(int kind, Object value) {
    int n = kept(kind);
    if (n > 0) {
      return n < KEEP;
    }
    if (budget == null) {
      return true;
    }
    int bit = 1 << kind;
    if (value == null ? (refusedNull & bit) != 0 : (refusedKinds & bit) != 0 && refusedValue == value) {
      return false;
    }
    if (budget.take(kind, value)) {
      return true;
    }
    if (value == null) {
      refusedNull |= bit;
    } else if (refusedValue == null || refusedValue == value) {
      refusedValue = value;
      refusedKinds |= bit;
    }
    return false;
  }

  /** Keeps {@code e} (after {@link #wants} said yes). */
  void add(int kind, Object value, Evidence e) {
    if (items == null) {
      items = new Evidence[KINDS * KEEP];
      values = new Object[KINDS];
      counts = new byte[KINDS];
    }
    int n = counts[kind];
    if (n < KEEP) {
      items[kind * KEEP + n] = e;
      counts[kind] = (byte) (n + 1);
      if (n == 0) {
        values[kind] = value;
      }
    }
  }

  List<Evidence> items(int kind) {
    int n = kept(kind);
    List<Evidence> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(items[kind * KEEP + i]);
    }
    return out;
  }

  /** Whether the host keeps no more lines of this kind, whatever they say. */
  boolean full(int kind) {
    return kept(kind) >= KEEP;
  }

  private int kept(int kind) {
    return counts == null ? 0 : counts[kind];
  }

  /** Adds a later part's lines of the same host, numbered on by {@code off}. */
  void addAll(HostEvidence o, long off) {
    addAll(o, off, null);
  }

  /**
   * Adds the lines of one line's parse ({@link #oneLine}), whose entries stand for {@code line}
   * ({@link EvidenceSlot#CURRENT_LINE}), decoded only if one is kept.
   */
  void settle(HostEvidence oneLine, EvidenceSlot line) {
    addAll(oneLine, 0, line);
  }

  private void addAll(HostEvidence o, long off, EvidenceSlot line) {
    if (o.items == null) {
      return;
    }
    Evidence current = null;
    for (int kind = 0; kind < KINDS; kind++) {
      for (int i = 0; i < o.kept(kind); i++) {
        if (!wants(kind, o.values[kind])) {
          break;
        }
        Evidence e = o.items[kind * KEEP + i];
        if (e == EvidenceSlot.CURRENT_LINE) {
          if (current == null) {
            current = line.current();
          }
          e = current;
        }
        add(kind, o.values[kind], e.withLineOffset(off));
      }
    }
  }

  /** Whether this entry holds the lines of one line's parse only (no budget: see {@link #wants}). */
  boolean oneLine() {
    return budget == null;
  }
}
