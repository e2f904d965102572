package dev.nccltriage.source.k8s;

/**
 * Splits one line of block YAML (its indentation already taken off) into a "-", a key and a scalar
 * value, typed as SnakeYAML would; declines what it is not sure of.
 */
final class BlockLineSplitter {
  /** SnakeYAML refuses a simple key longer than 1024 characters. */
  private static final int MAX_KEY = 1000;

  /**
   * One line: a "-" (its content at column {@code col}), and a key with or without a value on the line,
   * or a value alone (after a "-"), or nothing (after a "-").
   */
  record Parsed(boolean dash, int col, String key, boolean hasValue, Object value) {}

  private final ScalarTypes types;

  BlockLineSplitter(ScalarTypes types) {
    this.types = types;
  }

  Parsed parse(String t, int ind) throws BlockYaml.Decline {
    boolean dash = t.equals("-") || t.startsWith("- ");
    if (!dash) {
      return keyLine(t, false, ind);
    }
    int at = 1;
    while (at < t.length() && t.charAt(at) == ' ') {
      at++;
    }
    if (at == t.length()) {
      return new Parsed(true, ind + at, null, false, null);
    }
    String rest = t.substring(at);
    char c0 = rest.charAt(0);
    if (c0 != '"' && c0 != '\'' && (rest.contains(": ") || rest.endsWith(":"))) {
      return keyLine(rest, true, ind + at);
    }
    return new Parsed(true, ind + at, null, true, scalar(rest));
  }

  private Parsed keyLine(String t, boolean dash, int col) throws BlockYaml.Decline {
    int c = t.indexOf(": ");
    if (c < 0 && t.endsWith(":")) {
      c = t.length() - 1;
    }
    if (c <= 0 || c > MAX_KEY || ScalarTypes.INDICATORS.indexOf(t.charAt(0)) >= 0 || t.charAt(c - 1) == ' ') {
      throw new BlockYaml.Decline();
    }
    String key = t.substring(0, c);
    int v = c + 1;
    while (v < t.length() && t.charAt(v) == ' ') {
      v++;
    }
    return v == t.length() ? new Parsed(dash, col, key, false, null)
        : new Parsed(dash, col, key, true, scalar(t.substring(v)));
  }

  private Object scalar(String s) throws BlockYaml.Decline {
    Object v = types.value(s);
    if (v == ScalarTypes.UNSURE) {
      throw new BlockYaml.Decline();
    }
    return v;
  }
}
