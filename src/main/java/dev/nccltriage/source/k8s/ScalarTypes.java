package dev.nccltriage.source.k8s;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.NodeId;
import org.yaml.snakeyaml.nodes.Tag;
import org.yaml.snakeyaml.resolver.Resolver;

/**
 * The value of a scalar on one line, typed as Jackson types it with SnakeYAML's implicit resolver
 * (plain scalars) or as a string (quoted), for {@link BlockYaml}; {@link #UNSURE} for what only the
 * full parser may judge. The resolver tries regular expressions by the scalar's first character; most
 * characters have none, which is known here without a call.
 */
final class ScalarTypes extends Resolver {
  /** Not a value this class is sure of. */
  static final Object UNSURE = new Object();
  /** Characters that may not start a plain scalar (and "-", "?", ":" are left to the full parser). */
  static final String INDICATORS = "-?:,[]{}#&*!|>'\"%@`";
  private static final Pattern SMALL_INT = Pattern.compile("0|[1-9][0-9]{0,8}");

  private final boolean[] stringOnly = new boolean[128];

  ScalarTypes() {
    boolean any = yamlImplicitResolvers.containsKey(null);
    for (char c = 0; c < 128; c++) {
      stringOnly[c] = !any && !yamlImplicitResolvers.containsKey(c);
    }
  }

  private Tag of(String plain) {
    char c = plain.charAt(0);
    return c < 128 && stringOnly[c] ? Tag.STR : resolve(NodeId.scalar, plain, true);
  }

  /** A value on its key's or dash's line, as Jackson types it; {@link #UNSURE} for what it cannot be sure of. */
  Object value(String s) {
    String v = s.stripTrailing();
    char c0 = v.charAt(0);
    if (v.equals("{}")) {
      return new LinkedHashMap<String, Node>();
    }
    if (v.equals("[]")) {
      return new ArrayList<Node>();
    }
    if (c0 == '"') {
      int end = v.indexOf('"', 1);
      if (end != v.length() - 1 || v.indexOf('\\') >= 0) {
        return UNSURE;
      }
      return v.substring(1, end);
    }
    if (c0 == '\'') {
      StringBuilder out = new StringBuilder(v.length());
      int i = 1;
      while (i < v.length()) {
        char c = v.charAt(i);
        if (c == '\'') {
          if (i + 1 < v.length() && v.charAt(i + 1) == '\'') {
            out.append('\'');
            i += 2;
            continue;
          }
          if (i != v.length() - 1) {
            return UNSURE;
          }
          return out.toString();
        }
        out.append(c);
        i++;
      }
      return UNSURE; // continues on the next line
    }
    if (INDICATORS.indexOf(c0) >= 0 || v.contains(": ") || v.endsWith(":")) {
      return UNSURE;
    }
    Tag tag = of(v);
    if (tag == Tag.STR) {
      return v;
    }
    if (tag == Tag.NULL) {
      return null;
    }
    if (tag == Tag.BOOL && (v.equals("true") || v.equals("false"))) {
      return Boolean.valueOf(v);
    }
    if (tag == Tag.INT && SMALL_INT.matcher(v).matches()) {
      return Integer.valueOf(v);
    }
    return UNSURE;
  }
}
