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

  private V learn(String text) {
    V v = meaning.apply(text);
    if (seen.size() >= limit) {
      seen.clear();
    }
    seen.put(text, v);
    return v;
  }
}
