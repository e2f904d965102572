package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** How a JSON value is located in pasted text ({@code ip -j addr}, {@code rdma -j link}, ...). */
class JsonTest {

  private static final String PROMPT = "[root@gpu-node-07 ~]# ip -j addr show dev net1\n";
  private static final String ARRAY = "[{\"ifindex\":3,\"ifname\":\"net1\",\"mtu\":9000}]\n";

  /** Every kind of first element a JSON array can start with, on the line of its {@code [}. */
  @ParameterizedTest
  @ValueSource(strings = {
      "[{\"ifname\":\"net1\"}]", "[[1,2]]", "[]", "[\"net1\"]", "[-1]", "[3]", "[true]",
      "[false]", "[null]", "[ 3 ]"})
  void arrayFoundWhateverItsFirstElement(String json) {
    JsonNode n = Json.findArray("$ rdma -j link\n" + json + "\n");
    assertThat(n).isNotNull();
    assertThat(n.isArray()).isTrue();
  }

  @Test
  void manyShellPromptsBeforeTheArrayDoNotUseUpTheSearch() {
    // a long interactive session pasted whole: each "[user@host dir]# cmd" line starts with '['
    // but is a prompt, not a JSON start, and must not count as a failed attempt
    String text = PROMPT.repeat(40) + ARRAY;
    JsonNode n = Json.findArray(text);
    assertThat(n).isNotNull();
    assertThat(n.get(0).get("ifname").asText()).isEqualTo("net1");
  }

  @Test
  void sixteenFalseStartsAreTriedBeforeTheArray() {
    // "[1 2" starts like JSON but is not: each such line is one attempt (up to 16)
    String text = "[1 2\n".repeat(15) + ARRAY;
    assertThat(Json.findArray(text)).isNotNull();
  }

  @Test
  void searchGivesUpAfterSixteenFalseStarts() {
    // bounded work on hostile input: the 17th JSON-like start is not tried any more
    String text = "[1 2\n".repeat(16) + ARRAY;
    assertThat(Json.findArray(text)).isNull();
  }

  @Test
  void emptyObjectIsAnObject() {
    JsonNode n = Json.findObject("$ rdma -j system\n{}\n");
    assertThat(n).isNotNull();
    assertThat(n.isObject()).isTrue();
    assertThat(n.size()).isZero();
  }

  @Test
  void numberWrittenAsStringIsRead() {
    JsonNode o = Json.findObject("{\"mtu\":\"9000\",\"ifindex\":\"x\",\"link_netnsid\":2.5}");
    assertThat(Json.integer(o, "mtu")).isEqualTo(9000);
    assertThat(Json.integer(o, "ifindex")).isNull();
    assertThat(Json.integer(o, "link_netnsid")).isNull();
  }
}
