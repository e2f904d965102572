package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The "Using" lines split by hand answer as the expressions they stand for: on every message of
 * the real logs, on every interface text in them, and on texts made of the lines' own words (with
 * tabs, line terminators and non-ASCII among them, which go to the expressions).
 */
class UsingLinesTest {
  private static final Set<String> MESSAGES = new LinkedHashSet<>();
  private static final Set<String> IFACE_TEXTS = new LinkedHashSet<>();

  @BeforeAll
  static void load() {
    MESSAGES.addAll(LogLines.realMessages());
    for (String m : MESSAGES) {
      for (String word : m.split(" ")) {
        IFACE_TEXTS.add(word);
        int close = word.indexOf(']');
        if (close >= 0) {
          IFACE_TEXTS.add(word.substring(close + 1));
        }
      }
      int oob = m.indexOf("OOB");
      if (oob >= 0) {
        IFACE_TEXTS.add(m.substring(oob + 3).strip());
      }
    }
  }

  @Test
  void ibUsingAnswersAsTheExpression() {
    assertThat(agree(MESSAGES, UsingLines::ibUsing, UsingLines::ibUsingByHand, UsingLines::ibUsingByExpression))
        .as("real NET/IB Using lines").isGreaterThan(20);
    assertThat(agree(texts(1, 3, "NET/IB : Using", "NET/IB: Using", "NET/IB :Using", " [0]mlx5_0:1/IB", " [1]mlx5_1:1/RoCE", " [RO]",
        "; OOB ", ";OOB", " ", "eth0:10.0.0.1<0>", "ib0:", "10.0.0.1", "<0>", ";", "[RO]", "OOB", "x"),
        UsingLines::ibUsing, UsingLines::ibUsingByHand, UsingLines::ibUsingByExpression)).isGreaterThan(1500);
  }

  @Test
  void bootstrapAnswersAsTheExpression() {
    assertThat(agree(MESSAGES, UsingLines::bootstrap, UsingLines::bootstrapByHand, UsingLines::bootstrapByExpression))
        .as("real Bootstrap Using lines").isGreaterThan(20);
    assertThat(agree(texts(2, 3, "Bootstrap : Using ", "Bootstrap: Using ", "Bootstrap : Using", "eth0:10.0.0.1<0>", "[0]eth0:10.0.0.1<0>",
        " [1]eth1:10.1.1.1<0>", " ", "[0]", "[", "]", "7", "[x]", "ib0:", ":", "<0>", "x"),
        UsingLines::bootstrap, UsingLines::bootstrapByHand, UsingLines::bootstrapByExpression)).isGreaterThan(2000);
  }

  @Test
  void socketAnswersAsTheExpression() {
    assertThat(agree(MESSAGES, UsingLines::socket, UsingLines::socketByHand, UsingLines::socketByExpression))
        .as("real NET/Socket Using lines").isGreaterThan(5);
    assertThat(agree(texts(3, 3, "NET/Socket : Using", "NET/Socket: Using", "NET/Socket :Using", " [0]eth0:10.0.0.1<0>",
        " [1]eth1:10.1.1.1<0>", " [12]ib0", " ", "[1]", "[", "]", "12", "eth0", ":", "<0>", "x"),
        UsingLines::socket, UsingLines::socketByHand, UsingLines::socketByExpression)).isGreaterThan(700);
  }

  @Test
  void interfacesAnswerAsTheExpressions() {
    Set<String> generated = texts(4, 3, "eth0:10.0.0.1<0>", "ib0:192.168.100.255", "a:b:1.2.3.4<12>",
        "eth0", ":", "10", ".", "1", "255", "1000", "<", ">", "<0>", "<12>", "fe80", "::", "%", " ", "a");
    assertThat(agree(IFACE_TEXTS, UsingLines::ipv4, UsingLines::ipv4ByHand, s -> UsingLines.ifaceByExpression(UsingLines.IPV4_IFACE, s)))
        .as("real interface texts with an IPv4 address").isGreaterThan(20);
    assertThat(agree(generated, UsingLines::ipv4, UsingLines::ipv4ByHand, s -> UsingLines.ifaceByExpression(UsingLines.IPV4_IFACE, s)))
        .isGreaterThan(300);
    assertThat(agree(IFACE_TEXTS, UsingLines::anyIface, UsingLines::anyIfaceByHand, s -> UsingLines.ifaceByExpression(UsingLines.ANY_IFACE, s)))
        .isGreaterThan(1000);
    assertThat(agree(generated, UsingLines::anyIface, UsingLines::anyIfaceByHand, s -> UsingLines.ifaceByExpression(UsingLines.ANY_IFACE, s)))
        .isGreaterThan(5000);
  }

  /**
   * Each text's answer from the dispatching method equals the expression's, and so does the hand
   * split's on plain text; returns how many texts matched at all (a test that matched none proves
   * nothing).
   */
  private static <T> int agree(Set<String> texts, Function<String, T> dispatch, Function<String, T> byHand,
      Function<String, T> expression) {
    int matched = 0;
    for (String t : texts) {
      T expected = expression.apply(t);
      assertThat(dispatch.apply(t)).as("\"%s\"", t).isEqualTo(expected);
      if (UsingLines.plain(t)) {
        assertThat(byHand.apply(t)).as("by hand: \"%s\"", t).isEqualTo(expected);
      }
      matched += expected == null ? 0 : 1;
    }
    return matched;
  }

  /**
   * 30000 texts: one of the line's shapes, {@code words} joined (the first {@code heads} of them are
   * the line's heads, put first most of the time), (none in three of ten), then cut, doubled or spliced at random places
   * with more of its words or an odd character (tabs, line terminators, non-ASCII).
   */
  private static Set<String> texts(long seed, int heads, String... words) {
    String[] odd = {"\t", "\n", "\r", "\u0085", "\u2028", "\u00e9", "\u000b"};
    Random r = new Random(seed);
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < 30_000; i++) {
      StringBuilder b = new StringBuilder();
      if (r.nextInt(5) > 0) {
        b.append(words[r.nextInt(heads)]);
      }
      for (int w = r.nextInt(10) - 3; w >= 0; w--) {
        b.append(words[heads + r.nextInt(words.length - heads)]);
      }
      for (int cut = r.nextInt(4); cut > 0 && b.length() > 0; cut--) {
        int at = r.nextInt(b.length());
        switch (r.nextInt(4)) {
          case 0 -> b.deleteCharAt(at);
          case 1 -> b.insert(at, words[heads + r.nextInt(words.length - heads)]);
          case 2 -> b.insert(at, b.charAt(at));
          default -> b.insert(at, r.nextInt(10) == 0 ? odd[r.nextInt(odd.length)] : " ");
        }
      }
      out.add(b.toString());
    }
    return out;
  }
}
