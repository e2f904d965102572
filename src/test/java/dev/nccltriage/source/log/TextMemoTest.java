package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A memo's answer held in a kept text's slot: the same answer as its map's, and only its own. */
class TextMemoTest {
  private static int kept(MessageTexts texts, String text) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return texts.find(b, 0, b.length);
  }

  @Test
  void aTextsMeaningIsWorkedOutOnceAndHeldInItsSlot() {
    MessageTexts texts = new MessageTexts();
    AtomicInteger asked = new AtomicInteger();
    TextMemo<String> memo = new TextMemo<>(16, t -> asked.incrementAndGet() + ":" + t.length());
    int slot = kept(texts, "Bootstrap : Using eth0:10.0.0.1<0>");
    String first = memo.get(texts, slot, texts.text(slot));
    assertThat(memo.get(texts, slot, texts.text(slot))).isSameAs(first);
    assertThat(memo.get(texts.text(slot))).isSameAs(first);
    assertThat(asked).hasValue(1);
  }

  @Test
  void anotherMemoAskedOfTheSameSlotGetsItsOwnAnswer() {
    MessageTexts texts = new MessageTexts();
    TextMemo<String> a = new TextMemo<>(16, t -> "a");
    TextMemo<Integer> b = new TextMemo<>(16, String::length);
    int slot = kept(texts, "NET/IB : Using [0]mlx5_0:1/IB ; OOB eth0:10.0.0.1<0>");
    String text = texts.text(slot);
    for (int i = 0; i < 3; i++) {
      assertThat(a.get(texts, slot, text)).isEqualTo("a");
      assertThat(b.get(texts, slot, text)).isEqualTo(text.length());
    }
  }

  @Test
  void aSlotThatHoldsSomethingElseKeepsIt() {
    MessageTexts texts = new MessageTexts();
    int slot = kept(texts, "NET/IB : Got completion from peer 10.0.0.2<4444> with status=12");
    Object other = new Object(); // what ErrorMessages keeps there for a WARN text
    texts.meaning(slot, other);
    TextMemo<String> memo = new TextMemo<>(16, t -> "meaning");
    assertThat(memo.get(texts, slot, texts.text(slot))).isEqualTo("meaning");
    assertThat(texts.meaning(slot)).isSameAs(other);
  }

  @Test
  void aTextNotKeptIsAnsweredByTheMap() {
    MessageTexts texts = new MessageTexts();
    String longText = "x".repeat(MessageTexts.MAX_TEXT + 1);
    int slot = kept(texts, longText);
    assertThat(slot).isEqualTo(MessageTexts.NONE);
    TextMemo<Integer> memo = new TextMemo<>(16, String::length);
    assertThat(memo.get(texts, slot, texts.text(slot))).isEqualTo(MessageTexts.MAX_TEXT + 1);
    assertThat(texts.meaning(slot)).isNull();
  }
}
