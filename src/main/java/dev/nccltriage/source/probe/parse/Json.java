package dev.nccltriage.source.probe.parse;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Lenient location and reading of a JSON value inside pasted text. Never throws. The tree is built
 * from Jackson's streaming parser as databind's {@code readTree} builds it (the same node types,
 * the last of duplicate keys, content after the value ignored), without an {@code ObjectMapper}:
 * its class initialisation alone costs a cold {@code check} about 50 ms ({@code JsonTreeTest}).
 */
final class Json {
  private static final JsonFactory PARSERS = JsonFactory.builder()
      .enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();
  private static final int MAX_ATTEMPTS = 16;

  private Json() {}

  /**
   * The first top-level JSON array found at the start of a line (a prompt or prose before it is
   * skipped, anything after it is ignored), or null when there is none.
   */
  static JsonNode findArray(String text) {
    return find(text, '[');
  }

  /** Like {@link #findArray} for a JSON object. */
  static JsonNode findObject(String text) {
    return find(text, '{');
  }

  private static JsonNode find(String text, char open) {
    if (text == null) {
      return null;
    }
    List<String> lines = Text.lines(text);
    int attempts = 0;
    for (int i = 0; i < lines.size() && attempts < MAX_ATTEMPTS; i++) {
      String t = lines.get(i).trim();
      if (t.isEmpty() || t.charAt(0) != open) {
        continue;
      }
      if (open == '[' && t.length() > 1 && !startsJsonValue(t.substring(1).trim())) {
        continue; // "[root@host ~]# ..." is a prompt, not JSON
      }
      attempts++;
      StringBuilder sb = new StringBuilder();
      for (int j = i; j < lines.size(); j++) {
        sb.append(lines.get(j)).append('\n');
      }
      JsonNode n = read(sb.toString());
      if (n != null && (open == '[' ? n.isArray() : n.isObject())) {
        return n;
      }
    }
    return null;
  }

  private static boolean startsJsonValue(String rest) {
    if (rest.isEmpty()) {
      return true;
    }
    char c = rest.charAt(0);
    return c == '{' || c == '[' || c == ']' || c == '"' || c == '-' || Character.isDigit(c)
        || rest.startsWith("true") || rest.startsWith("false") || rest.startsWith("null");
  }

  /** The first JSON value of {@code s}, or null when there is none or it is broken. */
  static JsonNode read(String s) {
    try (JsonParser p = PARSERS.createParser(s)) {
      return tree(p);
    } catch (Exception | StackOverflowError e) {
      return null;
    }
  }

  /** Iterative, so that nesting is bounded by the parser's limit, not by the stack. */
  private static JsonNode tree(JsonParser p) throws java.io.IOException {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    Deque<ContainerNode<?>> open = new ArrayDeque<>();
    String name = null;
    for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
      JsonNode value;
      switch (t) {
        case FIELD_NAME -> {
          name = p.currentName();
          continue;
        }
        case START_OBJECT -> value = nodes.objectNode();
        case START_ARRAY -> value = nodes.arrayNode();
        case END_OBJECT, END_ARRAY -> {
          JsonNode done = open.pop();
          if (open.isEmpty()) {
            return done;
          }
          continue;
        }
        case VALUE_STRING -> value = nodes.textNode(p.getText());
        case VALUE_NUMBER_INT -> value = switch (p.getNumberType()) {
          case INT -> nodes.numberNode(p.getIntValue());
          case LONG -> nodes.numberNode(p.getLongValue());
          default -> nodes.numberNode(p.getBigIntegerValue());
        };
        case VALUE_NUMBER_FLOAT -> value = p.getNumberType() == JsonParser.NumberType.BIG_DECIMAL
            ? nodes.numberNode(p.getDecimalValue()) : nodes.numberNode(p.getDoubleValue());
        case VALUE_TRUE -> value = nodes.booleanNode(true);
        case VALUE_FALSE -> value = nodes.booleanNode(false);
        case VALUE_NULL -> value = nodes.nullNode();
        default -> throw new java.io.IOException("unexpected " + t);
      }
      ContainerNode<?> parent = open.peek();
      if (parent instanceof ObjectNode o) {
        o.replace(name, value);
      } else if (parent instanceof ArrayNode a) {
        a.add(value);
      } else if (!(value instanceof ContainerNode<?>)) {
        return value; // a scalar at the top
      }
      if (value instanceof ContainerNode<?> c) {
        open.push(c);
      }
    }
    return null; // no content, or a value cut off
  }

  static String str(JsonNode o, String field) {
    JsonNode v = o.get(field);
    return v == null || v.isNull() || v.isContainerNode() ? null : v.asText();
  }

  static Integer integer(JsonNode o, String field) {
    JsonNode v = o.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (v.isIntegralNumber() && v.canConvertToInt()) {
      return v.intValue();
    }
    return v.isTextual() ? Text.toInt(v.asText()) : null;
  }
}
