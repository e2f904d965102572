package dev.nccltriage.source.log;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * What a message text means, worked out once per distinct text and remembered (every process of a
 * job prints the same texts). Bounded: past {@code limit} texts it starts over, since a long log's
 * texts drift and the recent ones are the ones seen again. {@code meaning} never returns null (a
 * text that means nothing gets a sentinel).
 */
final class TextMemo<V> {
  private final int limit;
  private final Function<String, V> meaning;
  private final Map<String, V> seen = new HashMap<>();

  TextMemo(int limit, Function<String, V> meaning) {
    this.limit = limit;
    this.meaning = meaning;
  }

  V get(String text) {
    V v = seen.get(text);
    return v != null ? v : learn(text);
  }

  /**
   * As {@link #get(String)}, for a text kept in {@code texts} at {@code slot} ({@code text} is that
   * slot's text): the answer is held in the slot too, where the slot holds nothing else, so that a
   * repeat costs an array read instead of a map lookup (a slot's text is one family's; where
   * another memo or ErrorMessages holds the slot, this one's map answers).
   */
  V get(MessageTexts texts, int slot, String text) {
    V v = held(texts, slot);
    if (v != null) {
      return v;
    }
    v = get(text);
    if (slot >= 0 && texts.meaning(slot) == null) {
      texts.meaning(slot, new Held(this, v));
    }
    return v;
  }

  /** This memo's answer held in the slot ({@link #get(MessageTexts, int, String)}), else null. */
  @SuppressWarnings("unchecked")
  V held(MessageTexts texts, int slot) {
    return texts.meaning(slot) instanceof Held h && h.memo() == this ? (V) h.value() : null;
  }

  /** What a memo holds in a text's slot: the memo, so that no other one takes it for its own. */
  private record Held(TextMemo<?> memo, Object value) {}

  private V learn(String text) {
    V v = meaning.apply(text);
    if (seen.size() >= limit) {
      seen.clear();
    }
    seen.put(text, v);
    return v;
  }
}
