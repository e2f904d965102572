package dev.nccltriage.source.probe.parse;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.List;

/** Lenient location and reading of a JSON value inside pasted text. Never throws. */
final class Json {
  private static final JsonMapper MAPPER = JsonMapper.builder()
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

  private static JsonNode read(String s) {
    try (JsonParser p = MAPPER.createParser(s)) {
      return MAPPER.readTree(p);
    } catch (Exception | StackOverflowError e) {
      return null;
    }
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
