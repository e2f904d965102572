package dev.nccltriage.rules;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * The built-in rule files as parsed trees, lines included, in a compact binary form that the build
 * writes ({@link RulesCompiler}) and the loader reads: tokenising 70 KB of YAML costs ~50 ms of a
 * cold JVM, reading this a few. The trees carry a checksum of the YAML they came from, so that a
 * loader that can see the YAML (a class folder, which may be edited after the build) uses them
 * only while they match it; the YAML stays the one source.
 *
 * <p>The form: magic, checksum, then every distinct text once (keys such as "id" or "when" recur
 * thousands of times: each is decoded into one String, not one per use), then the files' trees,
 * whose texts are indices into that table. Counts, lines and indices are unsigned varints. It is
 * decoded from one byte array, without a stream's per-byte calls: a cold JVM runs that code
 * interpreted.
 */
final class YamlTrees {
  static final String FILE = "rules.bin"; // beside the YAML, under rules/
  static final String RESOURCE = "/rules/" + FILE;
  private static final int MAGIC = 0x4e545232; // "NTR2"
  private static final int NULL = 0;
  private static final int TEXT = 1;
  private static final int INTEGER = 2;
  private static final int DECIMAL = 3;
  private static final int BOOLEAN = 4;
  private static final int LIST = 5;
  private static final int MAP = 6;

  private YamlTrees() {}

  /** Stored trees by file name, in the files' order, and the checksum of the YAML they came from. */
  record Stored(long checksum, Map<String, YamlNode> trees) {}

  /** The checksum of the rule files, name and bytes, in order. */
  static long checksum(Map<String, byte[]> files) {
    CRC32 crc = new CRC32();
    files.forEach((name, bytes) -> {
      crc.update(name.getBytes(StandardCharsets.UTF_8));
      crc.update(0);
      crc.update(bytes);
      crc.update(0);
    });
    return crc.getValue();
  }

  static byte[] encode(long checksum, Map<String, YamlNode> trees) throws IOException {
    Map<String, Integer> texts = new LinkedHashMap<>();
    for (Map.Entry<String, YamlNode> e : trees.entrySet()) {
      index(texts, e.getKey());
      collect(texts, e.getValue());
    }
    Out out = new Out();
    out.fixed(MAGIC, 4);
    out.fixed(checksum, 8);
    out.varint(texts.size());
    for (String t : texts.keySet()) {
      byte[] b = t.getBytes(StandardCharsets.UTF_8);
      out.varint(b.length);
      out.write(b, 0, b.length);
    }
    out.varint(trees.size());
    for (Map.Entry<String, YamlNode> e : trees.entrySet()) {
      out.varint(texts.get(e.getKey()));
      node(out, texts, e.getValue());
    }
    return out.toByteArray();
  }

  /** The trees stored in {@code bytes}, or null when they are not in this form (another version, damaged). */
  static Stored decode(byte[] bytes) {
    try {
      In in = new In(bytes);
      if (in.fixed(4) != MAGIC) {
        return null;
      }
      long checksum = in.fixed(8);
      String[] texts = new String[in.count(1)];
      for (int i = 0; i < texts.length; i++) {
        texts[i] = in.text();
      }
      int files = in.count(2);
      Map<String, YamlNode> trees = new LinkedHashMap<>();
      for (int i = 0; i < files; i++) {
        String name = texts[in.index(texts.length)];
        trees.put(name, node(in, texts, 0));
      }
      return in.atEnd() ? new Stored(checksum, trees) : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static void index(Map<String, Integer> texts, String t) {
    texts.putIfAbsent(t, texts.size());
  }

  private static void collect(Map<String, Integer> texts, YamlNode n) {
    Object v = n.value();
    if (v instanceof String s) {
      index(texts, s);
    } else if (v instanceof List<?>) {
      n.list("a list").forEach(x -> collect(texts, x));
    } else if (v instanceof Map<?, ?>) {
      n.map("a mapping").forEach((k, x) -> {
        index(texts, k);
        collect(texts, x);
      });
    }
  }

  private static void node(Out out, Map<String, Integer> texts, YamlNode n) throws IOException {
    Object v = n.value();
    int kind = v == null ? NULL : v instanceof String ? TEXT : v instanceof Long ? INTEGER
        : v instanceof Double ? DECIMAL : v instanceof Boolean ? BOOLEAN : v instanceof List ? LIST
        : v instanceof Map ? MAP : -1;
    if (kind < 0) {
      throw new IOException("line " + n.line() + ": cannot store a " + v.getClass().getName());
    }
    if (n.line() < 0) {
      throw new IOException("line " + n.line() + ": cannot store a negative line");
    }
    out.write(kind);
    out.varint(n.line());
    switch (kind) {
      case TEXT -> out.varint(texts.get((String) v));
      case INTEGER -> out.fixed((Long) v, 8);
      case DECIMAL -> out.fixed(Double.doubleToRawLongBits((Double) v), 8);
      case BOOLEAN -> out.write((Boolean) v ? 1 : 0);
      case LIST -> {
        List<YamlNode> l = n.list("a list");
        out.varint(l.size());
        for (YamlNode x : l) {
          node(out, texts, x);
        }
      }
      case MAP -> {
        Map<String, YamlNode> m = n.map("a mapping");
        out.varint(m.size());
        for (Map.Entry<String, YamlNode> e : m.entrySet()) {
          out.varint(texts.get(e.getKey()));
          node(out, texts, e.getValue());
        }
      }
      default -> { } // null: nothing more
    }
  }

  // deeper than any rule file nests; damaged bytes could otherwise nest a list in a list until the
  // stack overflows, where the contract is null
  private static final int MAX_DEPTH = 64;

  private static YamlNode node(In in, String[] texts, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      throw new IOException("nested deeper than " + MAX_DEPTH);
    }
    int kind = in.next();
    int line = in.count();
    return switch (kind) {
      case NULL -> new YamlNode(null, line);
      case TEXT -> new YamlNode(texts[in.index(texts.length)], line);
      case INTEGER -> new YamlNode(in.fixed(8), line);
      case DECIMAL -> new YamlNode(Double.longBitsToDouble(in.fixed(8)), line);
      case BOOLEAN -> new YamlNode(in.next() != 0, line);
      case LIST -> {
        int size = in.count(2);
        List<YamlNode> l = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          l.add(node(in, texts, depth + 1));
        }
        yield new YamlNode(l, line);
      }
      case MAP -> {
        int size = in.count(3);
        Map<String, YamlNode> m = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
          String key = texts[in.index(texts.length)];
          m.put(key, node(in, texts, depth + 1));
        }
        yield new YamlNode(m, line);
      }
      default -> throw new IOException("unknown node kind " + kind);
    };
  }

  private static final class Out extends ByteArrayOutputStream {
    void varint(int v) {
      while ((v & ~0x7F) != 0) {
        write(v & 0x7F | 0x80);
        v >>>= 7;
      }
      write(v);
    }

    void fixed(long v, int bytes) {
      for (int i = bytes - 1; i >= 0; i--) {
        write((int) (v >>> (i << 3)) & 0xFF);
      }
    }
  }

  /** A cursor over the stored bytes; running past their end is an IOException, never an index error. */
  private static final class In {
    private final byte[] b;
    private int p;

    In(byte[] b) {
      this.b = b;
    }

    int next() throws IOException {
      if (p >= b.length) {
        throw new IOException("truncated");
      }
      return b[p++] & 0xFF;
    }

    long fixed(int bytes) throws IOException {
      long v = 0;
      for (int i = 0; i < bytes; i++) {
        v = v << 8 | next();
      }
      return v;
    }

    /** A count of items that each take at least {@code bytes} of what is left: else damaged, not allocated. */
    int count(int bytes) throws IOException {
      int n = count();
      if (n > (b.length - p) / bytes) {
        throw new IOException("count " + n + " past the end");
      }
      return n;
    }

    /** An unsigned varint of at most 31 bits. */
    int count() throws IOException {
      int v = 0;
      for (int shift = 0; shift < 32; shift += 7) {
        int x = next();
        v |= (x & 0x7F) << shift;
        if ((x & 0x80) == 0) {
          if (v < 0) {
            throw new IOException("count out of range");
          }
          return v;
        }
      }
      throw new IOException("varint too long");
    }

    int index(int size) throws IOException {
      int i = count();
      if (i >= size) {
        throw new IOException("text " + i + " of " + size);
      }
      return i;
    }

    String text() throws IOException {
      int n = count();
      if (n > b.length - p) {
        throw new IOException("truncated");
      }
      String s = new String(b, p, n, StandardCharsets.UTF_8);
      p += n;
      return s;
    }

    boolean atEnd() {
      return p == b.length;
    }
  }
}
