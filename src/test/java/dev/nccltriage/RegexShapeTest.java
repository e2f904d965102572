package dev.nccltriage;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * java.util.regex matches a repeated group, {@code (?:X)+}, by recursing once per repetition: on a
 * long enough input (a hostile line of 3000 socket interfaces, 10^5 dotted digits) it overflows the
 * stack. Every expression the tool compiles is read here, and none may repeat a group without a
 * small bound; a list is read one element at a time instead (see NetTexts.socketOf).
 */
class RegexShapeTest {
  /** Expressions applied to the tool's own text only, never to input. */
  private static final Map<String, String> OWN_TEXT = Map.of(
      "dev.nccltriage.cli.HelpWrap.ROW", "picocli's rendering of our own help",
      "dev.nccltriage.cli.HelpWrap.SYNOPSIS", "picocli's rendering of our own help");
  private static final int MAX_REPEAT = 16;

  @Test
  void noCompiledExpressionRepeatsAGroupWithoutBound() throws Exception {
    List<String> found = new ArrayList<>();
    int patterns = 0;
    Path root = Path.of("target/classes");
    try (Stream<Path> s = Files.walk(root)) {
      for (Path p : s.filter(x -> x.toString().endsWith(".class")).sorted().toList()) {
        String name = root.relativize(p).toString().replace('/', '.').replaceAll("\\.class$", "");
        Class<?> c = Class.forName(name, false, getClass().getClassLoader());
        for (Field f : c.getDeclaredFields()) {
          if (f.getType() != Pattern.class || !Modifier.isStatic(f.getModifiers())) {
            continue;
          }
          f.setAccessible(true);
          String expr = ((Pattern) f.get(null)).pattern();
          patterns++;
          String id = name + "." + f.getName();
          if (repeatsGroup(expr) && !OWN_TEXT.containsKey(id)) {
            found.add(id + ": " + expr);
          }
        }
      }
    }
    assertThat(patterns).as("expressions found").isGreaterThan(80);
    assertThat(found).isEmpty();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "^\\d+(?:\\.\\d+)+$|true",
      "(\\d+(?:\\.\\d+)*)|true",
      "(?: \\[\\d+\\]\\S+)+|true",
      "(ab){2,}|true",
      "(ab){1,100}|true",
      "(?:ab)++|true",
      "(ab){3}|false",
      "(ab){1,3}|false",
      "(ab)?|false",
      "\\(a\\)+|false",
      "[(a)]+|false",
      "[\\]()]+|false",
      "\\d{1,3}(?:\\.\\d{1,3}){3}|false",
      "(?<!\\d)(\\d++)\\s+HCAs?|false",
  })
  void aRepeatedGroupIsToldFromOtherRepeats(String expr, boolean repeats) {
    assertThat(repeatsGroup(expr)).as(expr).isEqualTo(repeats);
  }

  /** Whether a group (a closing parenthesis outside a class, not escaped) is followed by *, + or a large {n,m}. */
  static boolean repeatsGroup(String e) {
    int depthInClass = 0;
    for (int i = 0; i < e.length(); i++) {
      char c = e.charAt(i);
      if (c == '\\') {
        i++; // the escaped character is a literal
      } else if (depthInClass > 0) {
        if (c == '[') {
          depthInClass++; // Java's nested class, [a-z&&[^e]]
        } else if (c == ']') {
          depthInClass--;
        }
      } else if (c == '[') {
        depthInClass = 1;
        if (i + 1 < e.length() && e.charAt(i + 1) == ']') {
          i++; // "[]...]": a leading ']' is a member
        }
      } else if (c == ')' && i + 1 < e.length()) {
        char q = e.charAt(i + 1);
        if (q == '*' || q == '+') {
          return true;
        }
        if (q == '{') {
          int close = e.indexOf('}', i);
          String[] range = e.substring(i + 2, close).split(",", -1);
          if (range.length == 2 && (range[1].isEmpty() || Integer.parseInt(range[1]) > MAX_REPEAT)) {
            return true;
          }
        }
      }
    }
    return false;
  }
}
