package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Issue 12 item 7: the index NCCL uses on a RoCE port, replaying net_ib.cc's choice over the tables
 * of shared/probes/show_gids (the canonical host table, a macvlan Pod whose GIDs start at index 4, a
 * host with two link-local GIDs).
 */
class GidIndexChoiceTest {
  private static final GidIndexChoice.Wanted V2_IPV4 = GidIndexChoice.wanted(Map.of());
  private static final String LL = "fe80:0000:0000:0000:a288:c2ff:fe5b:03ec";
  private static final String V4 = "0000:0000:0000:0000:0000:ffff:0b00:0048";
  private static final String V6 = "2001:0db8:0000:0000:0000:0000:0000:0048";

  private static PodFacts.Gid gid(int index, String gid, Integer version) {
    String kind = gid.startsWith("fe80") ? "link-local" : gid.startsWith("0000:0000:0000:0000:0000:ffff") ? "ipv4" : "ipv6";
    return new PodFacts.Gid(index, gid, kind, kind.equals("ipv4") ? "11.0.0.72" : null, version, "net1");
  }

  private static PodFacts.PortGids port(PodFacts.Gid... gids) {
    return new PodFacts.PortGids("mlx5_0", 1, "sysfs", List.of(gids));
  }

  private static final PodFacts.PortGids CANONICAL = port(gid(0, LL, 1), gid(1, LL, 2), gid(2, V4, 1), gid(3, V4, 2));

  @Test
  void theCanonicalTableGivesIndexThree() {
    assertThat(GidIndexChoice.auto(CANONICAL, V2_IPV4, false)).contains(3);
    assertThat(GidIndexChoice.firstFitting(CANONICAL, V2_IPV4)).isEqualTo(3);
  }

  @Test
  void aMacvlanPodWhoseTableStartsAtFourGivesSeven() {
    PodFacts.PortGids p = port(gid(4, LL, 1), gid(5, LL, 2), gid(6, V4, 1), gid(7, V4, 2));
    assertThat(GidIndexChoice.auto(p, V2_IPV4, false)).contains(7);
  }

  @Test
  void twoLinkLocalGidsBeforeTheIpv4OnesGiveFive() {
    String ll2 = "fe80:0000:0000:0000:1186:a6b1:3f0b:c441";
    PodFacts.PortGids p = port(gid(0, LL, 1), gid(1, LL, 2), gid(2, ll2, 1), gid(3, ll2, 2), gid(4, V4, 1), gid(5, V4, 2));
    assertThat(GidIndexChoice.auto(p, V2_IPV4, false)).contains(5);
  }

  @Test
  void noIpv4AddressLeavesNcclOnTheLinkLocalIndexZero() {
    assertThat(GidIndexChoice.auto(port(gid(0, LL, 1), gid(1, LL, 2)), V2_IPV4, false)).contains(0);
    assertThat(GidIndexChoice.firstFitting(port(gid(0, LL, 1), gid(1, LL, 2)), V2_IPV4)).isNull();
  }

  @Test
  void theFirstOfTwoIpv4AddressesWins() {
    String other = "0000:0000:0000:0000:0000:ffff:0b00:0049";
    PodFacts.PortGids p = port(gid(0, LL, 1), gid(1, LL, 2), gid(2, V4, 1), gid(3, V4, 2), gid(4, other, 1), gid(5, other, 2));
    assertThat(GidIndexChoice.auto(p, V2_IPV4, false)).contains(3);
  }

  @Test
  void addressFamilyAndRoceVersionSteerTheChoice() {
    PodFacts.PortGids p = port(gid(0, LL, 1), gid(1, LL, 2), gid(2, V6, 1), gid(3, V6, 2), gid(4, V4, 1), gid(5, V4, 2));
    assertThat(GidIndexChoice.auto(p, V2_IPV4, false)).contains(5);
    GidIndexChoice.Wanted v6 = GidIndexChoice.wanted(Map.of("NCCL_IB_ADDR_FAMILY", "AF_INET6"));
    assertThat(v6.label()).isEqualTo("RoCE v2 IPv6");
    assertThat(GidIndexChoice.auto(p, v6, false)).contains(3);
    GidIndexChoice.Wanted v1 = GidIndexChoice.wanted(Map.of("NCCL_IB_ROCE_VERSION_NUM", "1"));
    assertThat(v1.label()).isEqualTo("RoCE v1 IPv4-mapped");
    assertThat(GidIndexChoice.auto(p, v1, false)).contains(4);
  }

  @Test
  void anAddressRangeOrAnUnreadableTypeIsNotPredicted() {
    assertThat(GidIndexChoice.auto(CANONICAL, V2_IPV4, true)).isEmpty();
    PodFacts.PortGids p = port(gid(0, LL, 1), gid(1, LL, 2), gid(2, V4, 1), gid(3, V4, null));
    assertThat(GidIndexChoice.auto(p, V2_IPV4, false)).isEqualTo(Optional.empty());
    assertThat(GidIndexChoice.firstFitting(p, V2_IPV4)).isNull();
    assertThat(V2_IPV4.mayFit(GidIndexChoice.at(p, 3))).isTrue();
  }

  @Test
  void theIndexIsReadAsNcclReadsIt() {
    assertThat(GidIndexChoice.envIndex(null)).isNull();
    assertThat(GidIndexChoice.envIndex("")).isNull();
    assertThat(GidIndexChoice.envIndex("-1")).isNull();
    assertThat(GidIndexChoice.envIndex("3")).isEqualTo(3);
    assertThat(GidIndexChoice.envIndex(" 3 ")).isEqualTo(3);
    assertThat(GidIndexChoice.envIndex("0x3")).isEqualTo(3);
    assertThat(GidIndexChoice.envIndex("010")).isEqualTo(8);
    assertThat(GidIndexChoice.envIndex("3abc")).isEqualTo(3);
    assertThat(GidIndexChoice.envIndex("abc")).isZero();
    assertThat(GidIndexChoice.envIndex("99999999999999999999")).isNull();
    // the largest index an int holds is still an index (no table has it); one past it is not
    assertThat(GidIndexChoice.envIndex("2147483647")).isEqualTo(Integer.MAX_VALUE);
    assertThat(GidIndexChoice.envIndex("2147483648")).isNull();
    assertThat(GidIndexChoice.envIndex("0")).isZero();
  }

  @Test
  void describesWhatAnIndexHolds() {
    assertThat(GidIndexChoice.describe(GidIndexChoice.at(CANONICAL, 0))).isEqualTo("a link-local RoCE v1 GID");
    assertThat(GidIndexChoice.describe(GidIndexChoice.at(CANONICAL, 2))).isEqualTo("an IPv4-mapped RoCE v1 GID");
    assertThat(GidIndexChoice.describe(GidIndexChoice.at(CANONICAL, 9))).isEqualTo("an empty slot");
    List<PodFacts.Gid> fits = new ArrayList<>();
    CANONICAL.gids().stream().filter(V2_IPV4::fits).forEach(fits::add);
    assertThat(fits).extracting(PodFacts.Gid::index).containsExactly(3);
  }
}
