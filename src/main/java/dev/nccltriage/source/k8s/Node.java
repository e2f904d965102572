package dev.nccltriage.source.k8s;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value of a manifest with the line it starts on ({@code line}) and the line of the key that
 * holds it ({@code keyLine}; the item's line for list items), read with Jackson's streaming parser.
 */
record Node(Object value, int line, int keyLine) {
  static final Node MISSING = new Node(null, 0, 0);

  /** {@code base} is added to the parser's line numbers (it may start reading in the middle of a file). */
  static Node read(JsonParser p, int keyLine, int base) throws IOException {
    int line = base + p.currentTokenLocation().getLineNr();
    int kl = keyLine > 0 ? keyLine : line;
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, Node> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          int keyAt = base + p.currentTokenLocation().getLineNr();
          p.nextToken();
          m.put(key, read(p, keyAt, base));
        }
        return new Node(m, line, kl);
      }
      case START_ARRAY -> {
        List<Node> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(read(p, 0, base));
        }
        return new Node(l, line, kl);
      }
      case VALUE_STRING -> {
        return new Node(p.getText(), line, kl);
      }
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
        try {
          return new Node(p.getNumberValue(), line, kl);
        } catch (JsonProcessingException | NumberFormatException unreadable) {
          // YAML's .inf and .nan, which Jackson will not read as numbers: a value, kept as its text
          return new Node(p.getText(), line, kl);
        }
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return new Node(p.getBooleanValue(), line, kl);
      }
      case VALUE_NULL -> {
        return new Node(null, line, kl);
      }
      case VALUE_EMBEDDED_OBJECT -> {
        // YAML's !!binary: Kubernetes reads it as the base64 text a JSON manifest would hold
        Object o = p.getEmbeddedObject();
        return new Node(o instanceof byte[] bytes ? java.util.Base64.getEncoder().encodeToString(bytes)
            : String.valueOf(o), line, kl);
      }
      default -> throw new IOException("line " + line + ": not a YAML value that a manifest holds");
    }
  }

  boolean present() {
    return this != MISSING && value != null;
  }

  @SuppressWarnings("unchecked")
  Map<String, Node> map() {
    return value instanceof Map ? (Map<String, Node>) value : Map.of();
  }

  @SuppressWarnings("unchecked")
  List<Node> list() {
    return value instanceof List ? (List<Node>) value : List.of();
  }

  boolean isMap() {
    return value instanceof Map;
  }

  Node get(String key) {
    Node n = map().get(key);
    return n == null ? MISSING : n;
  }

  /** Follows a path of keys; MISSING when any step is absent. */
  Node at(String... keys) {
    Node n = this;
    for (String k : keys) {
      n = n.get(k);
    }
    return n;
  }

  String text() {
    return value == null || value instanceof Map || value instanceof List ? null : String.valueOf(value);
  }

  /**
   * The value as a whole number; {@code dflt} when it is none, or when it does not fit a long (a
   * quantity of 99999999999999999999, or 1e400: an unusual value is unknown, never a wrapped one).
   */
  long number(long dflt) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof java.math.BigInteger b) {
      return b.bitLength() < 64 ? b.longValue() : dflt;
    }
    if (value instanceof Number n) {
      double d = n.doubleValue();
      return Double.isFinite(d) && Math.abs(d) < 0x1p63 ? (long) d : dflt;
    }
    try {
      return value == null ? dflt : Long.parseLong(String.valueOf(value).strip());
    } catch (NumberFormatException e) {
      return dflt;
    }
  }
}
