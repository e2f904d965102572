package dev.nccltriage.rules;

import java.io.DataInputStream;
import java.io.DataOutputStream;
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
 * cold JVM, reading this ~2. The trees carry a checksum of the YAML they came from; the loader uses
 * them only when it matches the YAML in the jar, so the YAML stays the one source.
 */
final class YamlTrees {
  static final String RESOURCE = "/rules/rules.bin";
  private static final int MAGIC = 0x4e545231; // "NTR1"
  private static final int NULL = 0;
  private static final int TEXT = 1;
  private static final int INTEGER = 2;
  private static final int DECIMAL = 3;
  private static final int BOOLEAN = 4;
  private static final int LIST = 5;
  private static final int MAP = 6;

  private YamlTrees() {}

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

  static void write(DataOutputStream out, long checksum, Map<String, YamlNode> trees) throws IOException {
    out.writeInt(MAGIC);
    out.writeLong(checksum);
    out.writeInt(trees.size());
    for (Map.Entry<String, YamlNode> e : trees.entrySet()) {
      text(out, e.getKey());
      node(out, e.getValue());
    }
  }

  /** The trees by file name, or null when they were written for other YAML (or are not ours). */
  static Map<String, YamlNode> read(DataInputStream in, long checksum) throws IOException {
    if (in.readInt() != MAGIC || in.readLong() != checksum) {
      return null;
    }
    int n = in.readInt();
    Map<String, YamlNode> trees = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      trees.put(text(in), node(in));
    }
    return trees;
  }

  private static void node(DataOutputStream out, YamlNode n) throws IOException {
    Object v = n.value();
    int kind = v == null ? NULL : v instanceof String ? TEXT : v instanceof Long ? INTEGER
        : v instanceof Double ? DECIMAL : v instanceof Boolean ? BOOLEAN : v instanceof List ? LIST
        : v instanceof Map ? MAP : -1;
    if (kind < 0) {
      throw new IOException("line " + n.line() + ": cannot store a " + v.getClass().getName());
    }
    out.writeByte(kind);
    out.writeInt(n.line());
    switch (kind) {
      case TEXT -> text(out, (String) v);
      case INTEGER -> out.writeLong((Long) v);
      case DECIMAL -> out.writeDouble((Double) v);
      case BOOLEAN -> out.writeBoolean((Boolean) v);
      case LIST -> {
        List<YamlNode> l = n.list("a list");
        out.writeInt(l.size());
        for (YamlNode x : l) {
          node(out, x);
        }
      }
      case MAP -> {
        Map<String, YamlNode> m = n.map("a mapping");
        out.writeInt(m.size());
        for (Map.Entry<String, YamlNode> e : m.entrySet()) {
          text(out, e.getKey());
          node(out, e.getValue());
        }
      }
      default -> { } // null: nothing more
    }
  }

  private static YamlNode node(DataInputStream in) throws IOException {
    int kind = in.readByte();
    int line = in.readInt();
    return switch (kind) {
      case NULL -> new YamlNode(null, line);
      case TEXT -> new YamlNode(text(in), line);
      case INTEGER -> new YamlNode(in.readLong(), line);
      case DECIMAL -> new YamlNode(in.readDouble(), line);
      case BOOLEAN -> new YamlNode(in.readBoolean(), line);
      case LIST -> {
        int size = in.readInt();
        List<YamlNode> l = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
          l.add(node(in));
        }
        yield new YamlNode(l, line);
      }
      case MAP -> {
        int size = in.readInt();
        Map<String, YamlNode> m = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
          m.put(text(in), node(in));
        }
        yield new YamlNode(m, line);
      }
      default -> throw new IOException("unknown node kind " + kind);
    };
  }

  private static void text(DataOutputStream out, String s) throws IOException {
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    out.writeInt(b.length);
    out.write(b);
  }

  private static String text(DataInputStream in) throws IOException {
    return new String(in.readNBytes(in.readInt()), StandardCharsets.UTF_8);
  }
}
