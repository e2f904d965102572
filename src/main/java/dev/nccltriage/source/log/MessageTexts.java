package dev.nccltriage.source.log;

import java.util.Arrays;

/**
 * The distinct message texts of one parser, each decoded once. Every rank of a job prints the same
 * once-per-process lines, and every rank of a failing job the same WARN and unwind lines, so a
 * text is found again by hashing its bytes eight at a time and comparing them once: no decoding,
 * no {@code String} hash (C1 compiles neither to vector code), and the one {@code String} handed
 * out hashes once and equals itself by identity in every memo keyed by it. Each text also keeps
 * the route its family took ({@link #route}), which is a function of the text alone.
 *
 * <p>Bounded: texts longer than {@link #MAX_TEXT} are decoded every time and never kept, and the
 * table starts over when its bytes or entries are full (a long log's texts drift).
 */
final class MessageTexts {
  // NCCL bounds a line at 1023 bytes up to 2.28; from 2.29 only its prefix and format are bounded
  // and a long expansion (an HCA list, a plugin's error) prints whole: a text up to 4 KB is kept
  static final int MAX_TEXT = 4095;
  private static final int MAX_BYTES = 4 << 20;
  private static final int MAX_BITS = 16;
  /** {@link #find}'s answer for a text that is not kept. */
  static final int NONE = -1;
  /** A slot argument meaning "not looked up yet": the callee finds the text itself. */
  static final int UNKNOWN = -2;
  /** A slot argument meaning "not looked up: the caller found that no rare family starts it". */
  static final int NOT_RARE = -3;
  /**
   * A slot argument meaning "not looked up: the caller found it a queue pair's line" ({@link
   * IbConnectionLines}, a new text on every line).
   */
  static final int IB_CONNECTION = -4;
  /** {@link #flags}: the text holds no second "NCCL INFO|WARN" envelope (checked once). */
  static final int PLAIN = 1;
  /** {@link #flags}: the tests after the first-byte families were run on this text. */
  static final int TAIL_KNOWN = 2;
  /** {@link #flags}: with TAIL_KNOWN, the text holds " comm 0x" in its first 64 bytes. */
  static final int TAIL_COMM = 4;
  /** {@link #flags}: with TAIL_KNOWN, a rare family may claim the text. */
  static final int TAIL_RARE = 8;

  // An entry packs what a probe needs into one long, so that a lookup touches one cache line:
  // bits 0-21 the text's offset in the pool, 22-33 its length, 34-37 flags, 38-45 route, 46-63 a
  // tag of its hash (never 0: 0 is an empty slot). The table's index comes from the hash's low bits.
  private static final int LENGTH_SHIFT = 22;
  private static final int LENGTH_BITS = 0xFFF;
  private static final int FLAGS_SHIFT = 34;
  private static final int ROUTE_SHIFT = 38;
  private static final int TAG_SHIFT = 46;
  private static final long OFFSET_MASK = (1L << LENGTH_SHIFT) - 1;
  private static final long KEY_MASK = -1L << TAG_SHIFT | (long) LENGTH_BITS << LENGTH_SHIFT; // tag and length

  private int bits = 10;
  private long[] entries = new long[1 << bits];
  private int[] hashes = new int[1 << bits]; // each entry's whole hash: growing does not hash texts again
  private String[] texts = new String[1 << bits];
  private Object[] meanings = new Object[1 << bits];
  private int used;
  private byte[] pool = new byte[64 << 10];
  private int poolEnd;
  private MessageTexts masks;
  private byte[] maskBuf = new byte[0];
  private int maskedOf = -1; // the slot masked() answered last, and its answer
  private int maskedSlot;
  // the last text not kept, for text(NONE): decoded only if asked for, while its line is current
  private byte[] uncachedBuf;
  private int uncachedFrom;
  private int uncachedTo;
  private String uncached;
  private int uncachedFlags;

  /** The slot of b[from, to), added if new; {@link #NONE} if the text is too long to keep. */
  int find(byte[] b, int from, int to) {
    int n = to - from;
    if (n > MAX_TEXT) {
      return uncached(b, from, to);
    }
    long scan = scan(b, from, n);
    int h = (int) scan;
    long key = tag(h) | (long) n << LENGTH_SHIFT;
    int mask = (1 << bits) - 1;
    for (int i = h & mask; ; i = (i + 1) & mask) {
      long at = entries[i];
      if (at == 0) {
        // a text with no 'N' cannot hold a second "NCCL INFO" envelope
        return add(i, h, b, from, n, (scan & HAS_N) == 0 ? PLAIN : 0);
      }
      if ((at & KEY_MASK) == key && Bytes.equal(b, from, pool, (int) (at & OFFSET_MASK), n)) {
        return i;
      }
    }
  }

  /** {@code text} if the caller looked b[from, to) up already ({@link #NONE} or a slot), else its slot now. */
  int slot(int text, byte[] b, int from, int to) {
    return text >= NONE ? text : find(b, from, to);
  }

  private static long tag(int h) {
    long t = (h >>> 14) & 0x3FFFF;
    return (t == 0 ? 1 : t) << TAG_SHIFT;
  }

  private int uncached(byte[] b, int from, int to) {
    uncachedBuf = b;
    uncachedFrom = from;
    uncachedTo = to;
    uncached = null;
    uncachedFlags = 0;
    return NONE;
  }

  /** The text of a slot, decoded on first use (most texts only ever need their flags). */
  String text(int slot) {
    if (slot == NONE) {
      if (uncached == null) {
        uncached = Bytes.text(uncachedBuf, uncachedFrom, uncachedTo);
      }
      return uncached;
    }
    String t = texts[slot];
    if (t == null) {
      long e = entries[slot];
      int off = (int) (e & OFFSET_MASK);
      t = Bytes.text(pool, off, off + length(e));
      texts[slot] = t;
    }
    return t;
  }

  /**
   * The slot in {@link #masks()} of the slot's text with its peer addresses masked
   * ({@link PeerAddresses#maskInto}), added if new; {@link #NONE} when it holds none (or is not
   * kept). A failing job's errors each name a new peer: their masked texts repeat, and what is a
   * function of the text alone and the same for any peer (the route, an error's meaning) is
   * remembered there. Valid until the next text is added here.
   */
  int masked(int slot) {
    if (slot < 0) {
      return NONE;
    }
    if (slot != maskedOf) {
      int n = length(entries[slot]);
      int off = (int) (entries[slot] & OFFSET_MASK);
      if (maskBuf.length < n) {
        maskBuf = new byte[n];
      }
      int m = PeerAddresses.maskInto(pool, off, off + n, maskBuf);
      maskedSlot = m < 0 ? NONE : masks().find(maskBuf, 0, m);
      maskedOf = slot;
    }
    return maskedSlot;
  }

  /** The bytes of kept texts: slot's text is {@code pool()[offset(slot), offset(slot) + length(slot))}. */
  byte[] pool() {
    return pool;
  }

  int offset(int slot) {
    return (int) (entries[slot] & OFFSET_MASK);
  }

  int length(int slot) {
    return length(entries[slot]);
  }

  /** The masked texts ({@link #masked}): made on first use. */
  MessageTexts masks() {
    if (masks == null) {
      masks = new MessageTexts();
    }
    return masks;
  }

  private static int length(long entry) {
    return (int) (entry >>> LENGTH_SHIFT) & LENGTH_BITS;
  }

  /** What is known about the slot's text ({@link #PLAIN}, {@link #TAIL_KNOWN}...); 0 if not kept. */
  int flags(int slot) {
    if (slot >= 0) {
      return (int) (entries[slot] >>> FLAGS_SHIFT) & 0xF;
    }
    return slot == NONE ? uncachedFlags : 0;
  }

  void addFlags(int slot, int f) {
    if (slot >= 0) {
      entries[slot] |= (long) (f & 0xF) << FLAGS_SHIFT;
    } else {
      addUncachedFlags(slot, f);
    }
  }

  private void addUncachedFlags(int slot, int f) {
    if (slot == NONE) {
      uncachedFlags |= f;
    }
  }

  /**
   * What {@link ErrorMessages} made of the slot's text (a function of the text; one reader's, so
   * that a repeated WARN costs no second lookup); null if not yet, or the text is not kept.
   */
  Object meaning(int slot) {
    return slot >= 0 ? meanings[slot] : null;
  }

  void meaning(int slot, Object meaning) {
    if (slot >= 0) {
      meanings[slot] = meaning;
    }
  }

  /** The route recorded for the slot's text; 0 when none yet (or the text is not kept). */
  int route(int slot) {
    return slot < 0 ? 0 : (int) (entries[slot] >>> ROUTE_SHIFT) & 0xFF;
  }

  void route(int slot, int route) {
    if (slot >= 0) {
      entries[slot] = entries[slot] & ~(0xFFL << ROUTE_SHIFT) | (long) (route & 0xFF) << ROUTE_SHIFT;
    }
  }

  private int add(int i, int h, byte[] b, int from, int n, int flags) {
    if (used + 1 > (1 << bits) / 2 || poolEnd + n > pool.length) {
      if (!grow(n)) {
        clear();
      }
      return find(b, from, from + n);
    }
    maskedOf = -1;
    System.arraycopy(b, from, pool, poolEnd, n);
    entries[i] = tag(h) | (long) flags << FLAGS_SHIFT | (long) n << LENGTH_SHIFT | poolEnd;
    hashes[i] = h;
    texts[i] = null;
    meanings[i] = null;
    poolEnd += n;
    used++;
    return i;
  }

  /** Doubles what is full, rehashing the entries; false when at the bounds. */
  private boolean grow(int n) {
    if (poolEnd + n > pool.length) {
      if (pool.length >= MAX_BYTES) {
        return false;
      }
      pool = Arrays.copyOf(pool, Math.min(MAX_BYTES, Math.max(2 * pool.length, poolEnd + n)));
      if (poolEnd + n > pool.length) {
        return false;
      }
    }
    if (used + 1 > (1 << bits) / 2) {
      if (bits >= MAX_BITS) {
        return false;
      }
      long[] oe = entries;
      int[] oh = hashes;
      String[] ot = texts;
      Object[] om = meanings;
      bits++;
      int mask = (1 << bits) - 1;
      entries = new long[1 << bits];
      hashes = new int[1 << bits];
      texts = new String[1 << bits];
      meanings = new Object[1 << bits];
      for (int j = 0; j < oe.length; j++) {
        if (oe[j] != 0) {
          int k = oh[j] & mask;
          while (entries[k] != 0) {
            k = (k + 1) & mask;
          }
          entries[k] = oe[j];
          hashes[k] = oh[j];
          texts[k] = ot[j];
          meanings[k] = om[j];
        }
      }
    }
    return true;
  }

  private void clear() {
    maskedOf = -1;
    Arrays.fill(entries, 0);
    Arrays.fill(texts, null);
    Arrays.fill(meanings, null);
    used = 0;
    poolEnd = 0;
  }

  private static final long HAS_N = 1L << 32;
  private static final long NS = Bytes.broadcast((byte) 'N');

  /**
   * The hash in the low 32 bits, and {@link #HAS_N} if a byte is 'N': one pass tells a repeated
   * text from a new one and a new text that cannot hold a glued record.
   */
  private static long scan(byte[] b, int from, int n) {
    // two independent products a step: the multiplies' latency, not the loads, bounds this loop
    long h = n * 0x9E3779B97F4A7C15L;
    long g = 0x632BE59BD9B4E019L;
    long ns = 0;
    int i = 0;
    for (; i + 16 <= n; i += 16) {
      long w = Bytes.word(b, from + i);
      long v = Bytes.word(b, from + i + 8);
      ns |= Bytes.zeroBytes(w ^ NS) | Bytes.zeroBytes(v ^ NS);
      h = (h ^ w) * 0xC2B2AE3D27D4EB4FL;
      g = (g ^ v) * 0x9FB21C651E98DF25L;
    }
    if (i + 8 <= n) {
      long w = Bytes.word(b, from + i);
      ns |= Bytes.zeroBytes(w ^ NS);
      h = (h ^ w) * 0xC2B2AE3D27D4EB4FL;
      i += 8;
    }
    if (i < n) {
      long tail;
      if (n >= 8) {
        tail = Bytes.word(b, from + n - 8); // overlaps the last word: same bytes, same value
        ns |= Bytes.zeroBytes(tail ^ NS);
      } else {
        tail = 0;
        for (int j = n - 1; j >= i; j--) {
          tail = tail << 8 | (b[from + j] & 0xFF);
          ns |= b[from + j] == 'N' ? 1 : 0;
        }
      }
      h = (h ^ tail) * 0x165667B19E3779F9L;
    }
    h ^= g * 0xD6E8FEB86659FD93L;
    int x = (int) (h ^ (h >>> 29) ^ (h >>> 47));
    return (x == 0 ? 1 : x) & 0xFFFFFFFFL | (ns != 0 ? HAS_N : 0);
  }
}
