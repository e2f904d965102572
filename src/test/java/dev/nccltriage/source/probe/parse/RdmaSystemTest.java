package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.probe.parse.RdmaSystem.NetnsMode;
import dev.nccltriage.source.probe.parse.RdmaSystem.Reading;
import dev.nccltriage.source.probe.parse.RdmaSystem.Result;
import org.junit.jupiter.api.Test;

class RdmaSystemTest {

  private static Result sample(String name) {
    return RdmaSystem.parse(Fixtures.read("rdma-system/" + name));
  }

  @Test
  void versionVariantsAllReadLastWins() {
    Result r = sample("iproute2-commits-version-variants");
    assertThat(r.readings()).extracting(Reading::netnsMode).containsExactly(
        NetnsMode.SHARED, NetnsMode.EXCLUSIVE, NetnsMode.SHARED, NetnsMode.SHARED,
        NetnsMode.SHARED, NetnsMode.SHARED, NetnsMode.SHARED);
    assertThat(r.readings().get(0).copyOnFork()).isNull(); // iproute2 5.3-5.13
    assertThat(r.readings().get(2).copyOnFork()).isTrue();
    assertThat(r.readings().get(3).privilegedQkey()).isFalse();
    assertThat(r.readings().get(4).privilegedQkey()).isTrue();
    assertThat(r.readings().get(5).monitor()).isTrue();
    assertThat(r.readings().get(6).monitor()).isFalse();
    assertThat(r.netnsMode()).isEqualTo(NetnsMode.SHARED);
    assertThat(r.copyOnFork()).isTrue();
    assertThat(r.unknownObject()).isFalse();
  }

  @Test
  void unknownObjectThenShared() {
    Result r = sample("shared-dev-plugin-84-shared-cof-on-and-unknown-object");
    assertThat(r.unknownObject()).isTrue();
    assertThat(r.messages()).containsExactly("Unknown object 'system'.");
    assertThat(r.netnsMode()).isEqualTo(NetnsMode.SHARED);
    assertThat(r.copyOnFork()).isTrue();
    // each paste on its own
    Result first = RdmaSystem.parse(Text.pastes(
        Fixtures.read("rdma-system/shared-dev-plugin-84-shared-cof-on-and-unknown-object")).get(0));
    assertThat(first.netnsMode()).isNull();
    assertThat(first.unknownObject()).isTrue();
  }

  @Test
  void indentedDocSharedToExclusiveIgnoresCommandsAndEcho() {
    Result r = sample("spiderpool-doc-host-shared-to-exclusive");
    assertThat(r.readings()).extracting(Reading::netnsRaw).containsExactly("shared", "exclusive");
    assertThat(r.netnsMode()).isEqualTo(NetnsMode.EXCLUSIVE);
    assertThat(r.copyOnFork()).isTrue();
  }

  @Test
  void oldTrailingSpaceAndCrlfAndUnknownWord() {
    assertThat(RdmaSystem.parse("netns exclusive \r\n").netnsMode())
        .isEqualTo(NetnsMode.EXCLUSIVE);
    Result u = RdmaSystem.parse("netns unknown copy-on-fork off");
    assertThat(u.netnsMode()).isEqualTo(NetnsMode.UNKNOWN);
    assertThat(u.copyOnFork()).isFalse();
  }

  @Test
  void jsonObjectAccepted() {
    Result r = RdmaSystem.parse("{\"netns\":\"exclusive\",\"copy-on-fork\":true}");
    assertThat(r.netnsMode()).isEqualTo(NetnsMode.EXCLUSIVE);
    assertThat(r.copyOnFork()).isTrue();
  }
}
