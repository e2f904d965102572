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
  static final int MAX_TEXT = 512;
  private static final int MAX_BYTES = 4 << 20;
  private static final int MAX_BITS = 16;
  /** {@link #find}'s answer for a text that is not kept. */
  static final int NONE = -1;

  private int bits = 10;
  private int[] hashes = new int[1 << bits]; // 0: empty slot
  private int[] offsets = new int[1 << bits];
  private int[] lengths = new int[1 << bits];
  private String[] texts = new String[1 << bits];
  private byte[] routes = new byte[1 << bits];
  private int used;
  private byte[] pool = new byte[64 << 10];
  private int poolEnd;
  private String uncached; // the last text not kept, for text(NONE)

  /** The slot of b[from, to), added if new; {@link #NONE} if the text is too long to keep. */
  int find(byte[] b, int from, int to) {
    int n = to - from;
    if (n > MAX_TEXT) {
      uncached = Bytes.text(b, from, to);
      return NONE;
    }
    int h = hash(b, from, n);
    int mask = (1 << bits) - 1;
    for (int i = h & mask; ; i = (i + 1) & mask) {
      int at = hashes[i];
      if (at == 0) {
        return add(i, h, b, from, n);
      }
      if (at == h && lengths[i] == n && Bytes.equal(b, from, pool, offsets[i], n)) {
        return i;
      }
    }
  }

  String text(int slot) {
    return slot == NONE ? uncached : texts[slot];
  }

  /** The route recorded for the slot's text; 0 when none yet (or the text is not kept). */
  int route(int slot) {
    return slot == NONE ? 0 : routes[slot];
  }

  void route(int slot, int route) {
    if (slot != NONE) {
      routes[slot] = (byte) route;
    }
  }

  private int add(int i, int h, byte[] b, int from, int n) {
    if (used + 1 > (1 << bits) / 2 || poolEnd + n > pool.length) {
      if (!grow(n)) {
        clear();
      }
      return find(b, from, from + n);
    }
    System.arraycopy(b, from, pool, poolEnd, n);
    hashes[i] = h;
    offsets[i] = poolEnd;
    lengths[i] = n;
    texts[i] = Bytes.text(b, from, from + n);
    routes[i] = 0;
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
      int[] oh = hashes;
      int[] oo = offsets;
      int[] ol = lengths;
      String[] ot = texts;
      byte[] or = routes;
      bits++;
      int size = 1 << bits;
      int mask = size - 1;
      hashes = new int[size];
      offsets = new int[size];
      lengths = new int[size];
      texts = new String[size];
      routes = new byte[size];
      for (int j = 0; j < oh.length; j++) {
        if (oh[j] != 0) {
          int k = oh[j] & mask;
          while (hashes[k] != 0) {
            k = (k + 1) & mask;
          }
          hashes[k] = oh[j];
          offsets[k] = oo[j];
          lengths[k] = ol[j];
          texts[k] = ot[j];
          routes[k] = or[j];
        }
      }
    }
    return true;
  }

  private void clear() {
    Arrays.fill(hashes, 0);
    Arrays.fill(texts, null);
    used = 0;
    poolEnd = 0;
  }

  /** A hash of b[from, from+n) over whole words; never 0 (0 marks an empty slot). */
  static int hash(byte[] b, int from, int n) {
    long h = n * 0x9E3779B97F4A7C15L;
    int i = 0;
    for (; i + 8 <= n; i += 8) {
      h = (h ^ Bytes.word(b, from + i)) * 0xC2B2AE3D27D4EB4FL;
    }
    if (i < n) {
      long tail;
      if (n >= 8) {
        tail = Bytes.word(b, from + n - 8); // overlaps the last word: same bytes, same value
      } else {
        tail = 0;
        for (int j = n - 1; j >= i; j--) {
          tail = tail << 8 | (b[from + j] & 0xFF);
        }
      }
      h = (h ^ tail) * 0x165667B19E3779F9L;
    }
    int x = (int) (h ^ (h >>> 29) ^ (h >>> 47));
    return x == 0 ? 1 : x;
  }
}
