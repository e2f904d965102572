package dev.nccltriage.host;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The interface list Java gives where ip is missing (an image with no iproute2), in ip's words: its
 * IPv6 addresses as ip prints them (RFC 5952: "::1", "fe80::fc:ff:fe00:1"), not Java's
 * "0:0:0:0:0:0:0:1", as the lent GPU host's capture showed them.
 */
class BuiltinInterfacesTest {
  private static final Pattern INET6 = Pattern.compile("(?m)^    inet6 (\\S+)/\\d+ scope ");

  @Test
  void ipv6AddressesAreInIpsCompressedForm() {
    CommandResult r = new BuiltinRunner((CommandRunner) argv -> CommandResult.missing(argv))
        .run(BuiltinRunner.INTERFACES);
    assertThat(r.ok()).as(r.stderr()).isTrue();
    Matcher m = INET6.matcher(r.stdout());
    int seen = 0;
    while (m.find()) {
      String text = m.group(1);
      byte[] bytes = Ipv6.parseV6(text);
      assertThat(bytes).as("parses: %s", text).isNotNull();
      assertThat(text).isEqualTo(Ipv6.compressed(bytes, true)).doesNotContain("%");
      seen++;
    }
    assumeTrue(seen > 0, "no IPv6 address on this machine's interfaces");
    assertThat(r.stdout()).doesNotContain("0:0:0:0:0:0:0:1");
  }

  @Test
  void compressedFormsAreIpsForTheAddressesInterfacesCarry() {
    for (List<String> c : List.of(
        List.of("0:0:0:0:0:0:0:1", "::1"),
        List.of("fd00:0:0:0:0:0:0:2", "fd00::2"),
        List.of("fe80:0:0:0:fc:ff:fe00:1", "fe80::fc:ff:fe00:1"),
        List.of("2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"),
        List.of("0:0:0:0:0:ffff:a00:1", "::ffff:10.0.0.1"))) {
      assertThat(Ipv6.compressed(Ipv6.parseV6(c.get(0)), true)).isEqualTo(c.get(1));
    }
  }
}
