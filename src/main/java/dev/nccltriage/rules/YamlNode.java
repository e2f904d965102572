package dev.nccltriage.rules;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value that remembers the line it came from, so the rule loader can name file and line in
 * every error. Read with Jackson's streaming YAML parser.
 */
record YamlNode(Object value, int line) {
  static YamlNode read(Reader in) throws IOException {
    try (JsonParser p = new YAMLFactory().createParser(in)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        return new YamlNode(new LinkedHashMap<String, YamlNode>(), 1);
      }
      return node(p);
    }
  }

  private static YamlNode node(JsonParser p) throws IOException {
    int line = p.currentTokenLocation().getLineNr();
    JsonToken t = p.currentToken();
    switch (t) {
      case START_OBJECT -> {
        Map<String, YamlNode> m = new LinkedHashMap<>();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String key = p.currentName();
          int keyLine = p.currentTokenLocation().getLineNr();
          p.nextToken();
          if (m.containsKey(key)) {
            throw new RuleException(keyLine, "duplicate key '" + key + "'");
          }
          m.put(key, node(p));
        }
        return new YamlNode(m, line);
      }
      case START_ARRAY -> {
        List<YamlNode> l = new ArrayList<>();
        while (p.nextToken() != JsonToken.END_ARRAY) {
          l.add(node(p));
        }
        return new YamlNode(l, line);
      }
      case VALUE_STRING -> {
        return new YamlNode(p.getText(), line);
      }
      case VALUE_NUMBER_INT -> {
        return new YamlNode(p.getLongValue(), line);
      }
      case VALUE_NUMBER_FLOAT -> {
        return new YamlNode(p.getDoubleValue(), line);
      }
      case VALUE_TRUE, VALUE_FALSE -> {
        return new YamlNode(p.getBooleanValue(), line);
      }
      case VALUE_NULL -> {
        return new YamlNode(null, line);
      }
      default -> throw new RuleException(line, "unexpected YAML token " + t);
    }
  }

  @SuppressWarnings("unchecked")
  Map<String, YamlNode> map(String what) {
    if (!(value instanceof Map)) {
      throw new RuleException(line, what + " must be a mapping");
    }
    return (Map<String, YamlNode>) value;
  }

  @SuppressWarnings("unchecked")
  List<YamlNode> list(String what) {
    if (!(value instanceof List)) {
      throw new RuleException(line, what + " must be a list");
    }
    return (List<YamlNode>) value;
  }

  String text(String what) {
    if (!(value instanceof String s) || s.isBlank()) {
      throw new RuleException(line, what + " must be a non-empty string");
    }
    return s;
  }

  long number(String what) {
    if (!(value instanceof Long n)) {
      throw new RuleException(line, what + " must be an integer");
    }
    return n;
  }
}
