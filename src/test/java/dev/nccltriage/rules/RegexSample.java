package dev.nccltriage.rules;

import java.util.ArrayList;
import java.util.List;

/**
 * Strings a rule's regex matches, built from its text: the first alternative of each group, each
 * top-level alternative in turn, an optional part once. Enough for the patterns rules use; a
 * pattern this cannot sample leaves the solver to the values of the rules' cases.
 */
final class RegexSample {
  private final String re;
  private int i;

  private RegexSample(String re) {
    this.re = re;
  }

  static List<String> of(String regex) {
    List<String> out = new ArrayList<>();
    String r = regex.replace("(?i)", "");
    for (String alt : topLevel(r)) {
      try {
        out.add(new RegexSample(alt).seq());
      } catch (RuntimeException e) {
        // a construct this sampler does not know: no sample from it
      }
    }
    return out;
  }

  private static List<String> topLevel(String r) {
    List<String> out = new ArrayList<>();
    int depth = 0;
    boolean inClass = false;
    int start = 0;
    for (int k = 0; k < r.length(); k++) {
      char c = r.charAt(k);
      if (c == '\\') {
        k++;
      } else if (inClass) {
        inClass = c != ']';
      } else if (c == '[') {
        inClass = true;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (c == '|' && depth == 0) {
        out.add(r.substring(start, k));
        start = k + 1;
      }
    }
    out.add(r.substring(start));
    return out;
  }

  /** A sequence up to ')' or the end; at '|' inside a group the rest of the group is skipped. */
  private String seq() {
    StringBuilder b = new StringBuilder();
    while (i < re.length()) {
      char c = re.charAt(i);
      if (c == ')') {
        return b.toString();
      }
      if (c == '|') {
        skipRestOfGroup();
        return b.toString();
      }
      String atom = atom();
      b.append(quantified(atom));
    }
    return b.toString();
  }

  private void skipRestOfGroup() {
    int depth = 0;
    boolean inClass = false;
    for (; i < re.length(); i++) {
      char c = re.charAt(i);
      if (c == '\\') {
        i++;
      } else if (inClass) {
        inClass = c != ']';
      } else if (c == '[') {
        inClass = true;
      } else if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (depth == 0) {
          return;
        }
        depth--;
      }
    }
  }

  private String atom() {
    char c = re.charAt(i++);
    switch (c) {
      case '^', '$' -> {
        return "";
      }
      case '.' -> {
        return "a";
      }
      case '(' -> {
        if (re.startsWith("?:", i)) {
          i += 2;
        } else if (re.startsWith("?=", i) || re.startsWith("?!", i) || re.startsWith("?<", i)) {
          throw new IllegalArgumentException("lookaround");
        }
        String s = seq();
        i++; // ')'
        return s;
      }
      case '[' -> {
        return klass();
      }
      case '\\' -> {
        char e = re.charAt(i++);
        return switch (e) {
          case 'd' -> "0";
          case 's' -> " ";
          case 'w' -> "a";
          case 'b', 'B' -> "";
          case 'S' -> "x";
          case 'D', 'W' -> "-";
          default -> String.valueOf(e);
        };
      }
      default -> {
        return String.valueOf(c);
      }
    }
  }

  private String klass() {
    boolean negated = i < re.length() && re.charAt(i) == '^';
    if (negated) {
      i++;
    }
    StringBuilder members = new StringBuilder();
    boolean first = true;
    while (i < re.length() && (re.charAt(i) != ']' || first)) {
      char c = re.charAt(i++);
      first = false;
      if (c == '\\') {
        char e = re.charAt(i++);
        members.append(e == 'd' ? '0' : e == 's' ? ' ' : e == 'w' ? 'a' : e);
      } else {
        members.append(c);
      }
    }
    i++; // ']'
    if (negated) {
      for (char c : "qQ0_ -".toCharArray()) {
        if (members.indexOf(String.valueOf(c)) < 0) {
          return String.valueOf(c);
        }
      }
      throw new IllegalArgumentException("negated class");
    }
    return members.isEmpty() ? "" : String.valueOf(members.charAt(0));
  }

  private String quantified(String atom) {
    if (i >= re.length()) {
      return atom;
    }
    char q = re.charAt(i);
    String out = atom;
    if (q == '?' || q == '*' || q == '+') {
      i++;
    } else if (q == '{') {
      int end = re.indexOf('}', i);
      String[] nm = re.substring(i + 1, end).split(",", -1);
      int n = Math.max(1, Integer.parseInt(nm[0].strip()));
      out = atom.repeat(n);
      i = end + 1;
    } else {
      return atom;
    }
    if (i < re.length() && (re.charAt(i) == '?' || re.charAt(i) == '+')) {
      i++; // lazy or possessive
    }
    return out;
  }
}
