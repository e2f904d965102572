package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The table of message texts: one String per distinct text, the same text as decoding, bounded. */
class MessageTextsTest {
  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aRepeatedTextIsTheSameStringAndKeepsItsRoute() {
    MessageTexts t = new MessageTexts();
    byte[] line = bytes("xxNET/IB : Got completion from peer 10.1.2.3<44206> with status=12yy");
    int a = t.find(line, 2, line.length - 2);
    assertThat(t.route(a)).isZero();
    t.route(a, 9);
    byte[] again = bytes("__NET/IB : Got completion from peer 10.1.2.3<44206> with status=12__");
    int b = t.find(again, 2, again.length - 2);
    assertThat(t.text(b)).isSameAs(t.text(a))
        .isEqualTo("NET/IB : Got completion from peer 10.1.2.3<44206> with status=12");
    assertThat(t.route(b)).isEqualTo(9);
  }

  @Test
  void textsThatDifferInOneByteOrInLengthAreToldApart() {
    MessageTexts t = new MessageTexts();
    String base = "transport/net_ib.cc:1426 -> 2 [Proxy Service 3]";
    Map<String, String> seen = new HashMap<>();
    for (int cut = 0; cut <= base.length(); cut++) {
      String prefix = base.substring(0, cut);
      seen.put(prefix, t.text(t.find(bytes(prefix), 0, cut)));
      for (int i = 0; i < cut; i++) {
        char[] c = prefix.toCharArray();
        c[i] = c[i] == 'x' ? 'y' : 'x';
        String changed = new String(c);
        seen.put(changed, t.text(t.find(bytes(changed), 0, cut)));
      }
    }
    seen.forEach((text, kept) -> assertThat(kept).isEqualTo(text));
    // found again, each is the String first handed out
    seen.forEach((text, kept) -> assertThat(t.text(t.find(bytes(text), 0, bytes(text).length))).isSameAs(kept));
  }

  @Test
  void utf8AndControlBytesDecodeAsTheParserDecodesThem() {
    MessageTexts t = new MessageTexts();
    byte[][] texts = {bytes("Gerät mlx5_0 nicht gefunden"), {(byte) 0xff, (byte) 0xfe, 'a', 0, 'b'}, {}, bytes("é")};
    for (byte[] b : texts) {
      assertThat(t.text(t.find(b, 0, b.length))).isEqualTo(Bytes.text(b, 0, b.length));
    }
  }

  @Test
  void aTextLongerThanTheBoundIsDecodedButNotKept() {
    MessageTexts t = new MessageTexts();
    byte[] b = bytes("x".repeat(MessageTexts.MAX_TEXT + 1));
    int slot = t.find(b, 0, b.length);
    assertThat(slot).isEqualTo(MessageTexts.NONE);
    assertThat(t.text(slot)).hasSize(MessageTexts.MAX_TEXT + 1);
    t.route(slot, 5);
    assertThat(t.route(slot)).isZero();
    t.meaning(slot, "kept?");
    assertThat(t.meaning(slot)).isNull();
  }

  @Test
  void manyDistinctTextsStayCorrectPastEveryBound() {
    // far more texts and bytes than the table keeps: it grows, then starts over, never answers wrong
    MessageTexts t = new MessageTexts();
    Random r = new Random(7);
    for (int i = 0; i < 200_000; i++) {
      String text = "Bootstrap: connection from 10." + r.nextInt(256) + "." + r.nextInt(256) + "." + i
          + "<" + r.nextInt(65536) + "> timed out" + "x".repeat(r.nextInt(300));
      byte[] b = bytes(text);
      int slot = t.find(b, 0, b.length);
      assertThat(t.text(slot)).isEqualTo(text);
      assertThat(t.route(slot)).isZero(); // a new text has no route, whatever the slot held before
      assertThat(t.meaning(slot)).isNull(); // nor a meaning
      t.route(slot, 1 + i % 100);
      t.meaning(slot, text);
      int again = t.find(b, 0, b.length);
      assertThat(t.route(again)).isEqualTo(1 + i % 100);
      assertThat(t.meaning(again)).isSameAs(slot == MessageTexts.NONE ? null : text);
    }
  }

  @Test
  void aNewTextIsPlainExactlyWhenNoByteIsAnN() {
    // PLAIN lets a repeat skip the search for a glued "NCCL INFO": never set where an 'N' is
    Random r = new Random(11);
    for (int n = 0; n <= 70; n++) {
      for (int at = -1; at < n; at++) {
        MessageTexts t = new MessageTexts();
        byte[] b = new byte[n + 16];
        for (int i = 0; i < b.length; i++) {
          b[i] = (byte) "NCL abcdefghij0123".charAt(r.nextInt(18));
        }
        for (int i = 8; i < 8 + n; i++) {
          if (b[i] == 'N') {
            b[i] = 'M';
          }
        }
        if (at >= 0) {
          b[8 + at] = 'N';
        }
        int slot = t.find(b, 8, 8 + n);
        assertThat(t.flags(slot) & MessageTexts.PLAIN).as("n=%d N at %d", n, at).isEqualTo(at < 0 ? MessageTexts.PLAIN : 0);
      }
    }
  }

  @Test
  void flagsRoutesAndMeaningsAreKeptApartAndSurviveGrowth() {
    MessageTexts t = new MessageTexts();
    int[] slots = new int[5000];
    for (int i = 0; i < slots.length; i++) {
      byte[] b = bytes("NET/IB : text number " + i);
      slots[i] = t.find(b, 0, b.length);
      t.route(slots[i], 0x7F & (i * 37 + 1));
      t.addFlags(slots[i], MessageTexts.TAIL_KNOWN | (i % 2 == 0 ? MessageTexts.TAIL_RARE : MessageTexts.TAIL_COMM));
      t.route(slots[i], 0x7F & (i * 37 + 1)); // setting a route again keeps the flags
      t.meaning(slots[i], i);
    }
    for (int i = 0; i < slots.length; i++) {
      byte[] b = bytes("NET/IB : text number " + i);
      int slot = t.find(b, 0, b.length); // the table grew since: the slot may have moved
      assertThat(t.text(slot)).isEqualTo("NET/IB : text number " + i);
      assertThat(t.route(slot)).isEqualTo(0x7F & (i * 37 + 1));
      assertThat(t.flags(slot)).isEqualTo(MessageTexts.TAIL_KNOWN | (i % 2 == 0 ? MessageTexts.TAIL_RARE : MessageTexts.TAIL_COMM));
      assertThat(t.meaning(slot)).isEqualTo(i);
    }
  }

  @Test
  void aTextNotKeptHasFlagsForItsOwnLineOnly() {
    MessageTexts t = new MessageTexts();
    byte[] longText = bytes("y".repeat(MessageTexts.MAX_TEXT + 1));
    int slot = t.find(longText, 0, longText.length);
    t.addFlags(slot, MessageTexts.TAIL_KNOWN);
    assertThat(t.flags(slot)).isEqualTo(MessageTexts.TAIL_KNOWN);
    assertThat(t.flags(t.find(longText, 0, longText.length))).isZero(); // looked up again: nothing known
    assertThat(t.flags(MessageTexts.UNKNOWN)).isZero();
    assertThat(t.flags(MessageTexts.NOT_RARE)).isZero();
  }
}
