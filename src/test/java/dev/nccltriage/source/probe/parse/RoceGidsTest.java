package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 12 item 7: the GID table files of sysfs and the show_gids script. */
class RoceGidsTest {

  @Test
  void readsTheThreeKindsOfGidAKernelWrites() {
    RoceGids.Gid ll = RoceGids.parseGid("fe80:0000:0000:0000:a288:c2ff:fe5b:03ec\n");
    assertThat(ll).isEqualTo(new RoceGids.Gid("fe80:0000:0000:0000:a288:c2ff:fe5b:03ec", RoceGids.Kind.LINK_LOCAL, null));
    RoceGids.Gid v4 = RoceGids.parseGid("0000:0000:0000:0000:0000:ffff:c0a8:640a\n");
    assertThat(v4.kind()).isEqualTo(RoceGids.Kind.IPV4);
    assertThat(v4.ipv4()).isEqualTo("192.168.100.10");
    assertThat(RoceGids.parseGid("2001:0db8:0000:0000:0000:0000:0000:0042\n").kind()).isEqualTo(RoceGids.Kind.IPV6);
    assertThat(RoceGids.parseGid("0000:0000:0000:0000:0000:0000:0000:0000\n").kind()).isEqualTo(RoceGids.Kind.EMPTY);
    // the default GID subnet prefix with no interface id is link-local too (NCCL's test is on the prefix)
    assertThat(RoceGids.parseGid("fe80:0000:0000:0000:0000:0000:0000:0000").kind()).isEqualTo(RoceGids.Kind.LINK_LOCAL);
  }

  @Test
  void normalisesCaseAndShortGroupsButNotCompressedIpv6() {
    assertThat(RoceGids.parseGid("FE80:0:0:0:A288:C2FF:FE5B:3EC").text())
        .isEqualTo("fe80:0000:0000:0000:a288:c2ff:fe5b:03ec");
    assertThat(RoceGids.parseGid("fe80::a288:c2ff:fe5b:3ec")).isNull();
    assertThat(RoceGids.parseGid("::ffff:192.168.100.10")).isNull();
  }

  @Test
  void readsTheTypeFileAndShowGidsVersions() {
    assertThat(RoceGids.parseType("IB/RoCE v1\n")).isEqualTo(1);
    assertThat(RoceGids.parseType("RoCE v2\n")).isEqualTo(2);
    assertThat(RoceGids.parseType("v2")).isEqualTo(2);
    assertThat(RoceGids.parseType("v1")).isEqualTo(1);
    assertThat(RoceGids.parseType("RoCE v3")).isNull();
    assertThat(RoceGids.parseType("InfiniBand")).isNull();
  }

  @Test
  void readsTheNetdevFile() {
    assertThat(RoceGids.parseNdev("net1\n")).isEqualTo("net1");
    assertThat(RoceGids.parseNdev("enp24s0np0")).isEqualTo("enp24s0np0");
    assertThat(RoceGids.parseNdev("a/b")).isNull();
    assertThat(RoceGids.parseNdev("waytoolongforanifname")).isNull();
  }

  /**
   * What a read of an unset entry's attributes leaves: the kernel answers EINVAL, so the probe has
   * no text (or, from a shell redirect or a support bundle, the error message) and the entry's type
   * is unknown, never a crash.
   */
  @Test
  void einvalStyleAndUnreadableAttributesAreUnknown() {
    for (String t : new String[] {null, "", "\n", "cat: /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/types/5: Invalid argument\n",
        "Invalid argument", "EINVAL"}) {
      assertThat(RoceGids.parseType(t)).as("%s", t).isNull();
      assertThat(RoceGids.parseGid(t)).as("%s", t).isNull();
    }
    assertThat(RoceGids.parseNdev("cat: /sys/class/infiniband/mlx5_0/ports/1/gid_attrs/ndevs/5: Invalid argument")).isNull();
  }

  @Test
  void garbageIsNoGid() {
    for (String t : new String[] {"fe80:0000:0000:0000:a288:c2ff:fe5b", "fe80:0000:0000:0000:a288:c2ff:fe5b:03ec:0000",
        "zzzz:0000:0000:0000:0000:ffff:c0a8:640a", "00000:0000:0000:0000:0000:ffff:c0a8:640a", "\u0000\u0001\u00ff",
        "0000:0000:0000:0000:0000:ffff:c0a8:640a trailing", "-1", "99999999999999999999"}) {
      assertThat(RoceGids.parseGid(t)).as("%s", t).isNull();
    }
    // blank lines before the value are skipped, as a paste may carry them
    assertThat(RoceGids.parseGid("\n\n  0000:0000:0000:0000:0000:ffff:0a0a:0101  \n").ipv4()).isEqualTo("10.10.1.1");
  }

  @Test
  void aHugeFileIsNoGidAndReadsFast() {
    String huge = "0000:0000:0000:0000:0000:ffff:c0a8:640a".repeat(30_000) + "\n";
    String hugeBlank = "\n".repeat(1 << 20) + "0000:0000:0000:0000:0000:ffff:c0a8:640a\n";
    assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
      assertThat(RoceGids.parseGid(huge)).isNull();
      assertThat(RoceGids.parseType(huge)).isNull();
      assertThat(RoceGids.parseNdev(huge)).isNull();
      assertThat(RoceGids.parseGid(hugeBlank).ipv4()).isEqualTo("192.168.100.10");
      assertThat(RoceGids.parseShowGids(("mlx5_0\t1\t3\t0000:0000:0000:0000:0000:ffff:c0a8:640a\t192.168.100.10\tv2\tnet1\n")
          .repeat(20_000)).rows()).hasSize(20_000);
    });
  }

  @Test
  void showGidsWithRealTabsAndAnEmptyIpv4Column() {
    RoceGids.Result r = RoceGids.parseShowGids(Fixtures.read("show_gids/nccl-1573-pod-macvlan-gid-index-4-7-tabs"));
    assertThat(r.rows()).hasSize(8);
    RoceGids.Row first = r.rows().get(0);
    assertThat(first.dev()).isEqualTo("mlx5_0");
    assertThat(first.port()).isEqualTo(1);
    assertThat(first.index()).isEqualTo(4);
    assertThat(first.gid().kind()).isEqualTo(RoceGids.Kind.LINK_LOCAL);
    assertThat(first.ipv4()).isNull();
    assertThat(first.version()).isEqualTo(1);
    assertThat(first.netdev()).isEqualTo("net1");
    RoceGids.Row seventh = r.rows().get(3);
    assertThat(seventh.index()).isEqualTo(7);
    assertThat(seventh.ipv4()).isEqualTo("10.152.0.12");
    assertThat(seventh.gid().ipv4()).isEqualTo("10.152.0.12");
    assertThat(seventh.version()).isEqualTo(2);
    assertThat(r.rows().get(7).dev()).isEqualTo("mlx5_1");
    assertThat(r.rows().get(7).netdev()).isEqualTo("net2");
  }

  @Test
  void showGidsWithSpacesAFooterAndAPrompt() {
    RoceGids.Result r = RoceGids.parseShowGids(Fixtures.read("show_gids/spectrumscale-4-host-cx6-6-gids-spaces"));
    assertThat(r.rows()).extracting(RoceGids.Row::index).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(r.rows()).extracting(RoceGids.Row::version).containsExactly(1, 2, 1, 2, 1, 2);
    assertThat(r.rows().get(5).ipv4()).isEqualTo("172.19.0.60");
    assertThat(r.rows().get(5).netdev()).isEqualTo("ens1f0");
  }

  @Test
  void showGidsIndentedByAPaste() {
    RoceGids.Result r = RoceGids.parseShowGids(Fixtures.read("show_gids/nccl-1131-host-indented-paste"));
    assertThat(r.rows()).hasSize(8);
    assertThat(r.rows().get(3).index()).isEqualTo(3);
    assertThat(r.rows().get(3).version()).isEqualTo(2);
    assertThat(r.rows().get(3).ipv4()).isEqualTo("11.0.0.72");
    assertThat(r.rows().get(7).netdev()).isEqualTo("ens2np0");
  }

  @Test
  void showGidsGarbageGivesNoRows() {
    for (String t : new String[] {null, "", "DEV\tPORT\tINDEX\tGID\n---\n", "n_gids_found=6",
        "mlx5_0\tx\t3\t0000:0000:0000:0000:0000:ffff:c0a8:640a\t\tv2\tnet1", "mlx5_0 1 99999999999 0000:0000:0000:0000:0000:ffff:c0a8:640a v2",
        "1 3 0000:0000:0000:0000:0000:ffff:c0a8:640a v2 net1"}) {
      assertThat(RoceGids.parseShowGids(t).rows()).as("%s", t).isEmpty();
    }
    assertThat(RoceGids.parseShowGids("mlx5_0 1 3 0000:0000:0000:0000:0000:ffff:c0a8:640a").rows())
        .containsExactly(new RoceGids.Row("mlx5_0", 1, 3, RoceGids.parseGid("0000:0000:0000:0000:0000:ffff:c0a8:640a"),
            null, null, null));
    assertThat(RoceGids.parseShowGids("x").rows()).isEqualTo(List.of());
  }
}
