package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.hosts;
import static dev.nccltriage.source.Logs.parse;
import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.facts.Difference;
import dev.nccltriage.facts.ErrorSignature;
import dev.nccltriage.facts.GdrDecision;
import dev.nccltriage.facts.LogFacts;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The aws-ofi-nccl plugin's own lines, and what log aggregators and launchers wrap around NCCL's
 * lines (spec §0b): Ray's " [repeated Nx across cluster]", markdown bold and table cells,
 * CloudWatch columns, kubectl's Pod prefix, lines without a host, connection bodies without their
 * head; then the signals read from interfaces (link-local, loopback), host names (Kubernetes) and
 * versions (a framework's, or one per host that disagree).
 *
 * <p>Why: a name read to the end of a line ("Using network IB") must not swallow an aggregator's
 * suffix, or the transport becomes "IB [repeated 7x across cluster]" and every rule on it is
 * blind; "Kubernetes" must be true only on evidence and unknown (null) otherwise, since the causes
 * in rules/causes.yaml give Pod-spec advice only when it is true. Hosts and addresses are invented.
 */
class PluginAndEnvelopeTest {
  private static final String OFI_HOST = "ip-10-4-5-6:81:2552 [0] ";

  private static ErrorSignature error(LogFacts f, String kind) {
    return f.errors().stream().filter(e -> e.kind().equals(kind)).findFirst()
        .orElseThrow(() -> new AssertionError("no error of kind " + kind + " in "
            + f.errors().stream().map(ErrorSignature::kind).toList()));
  }

  private static List<String> texts(List<Evidence> ev) {
    return ev.stream().map(Evidence::text).toList();
  }

  private static LogFacts lines(String... lines) {
    return parse(String.join("\n", lines) + "\n");
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class AwsOfiNccl {
    @Test
    void initializationFailedIsANetPluginInitError() {
      String line = OFI_HOST + "nccl_net_ofi_create_plugin:335 NCCL WARN NET/OFI aws-ofi-nccl initialization failed";
      ErrorSignature e = error(lines(line), "net_plugin_init");
      assertThat(e.detail()).isEqualTo("aws-ofi-nccl");
      assertThat(texts(e.evidence())).containsExactly(line);
    }

    @Test
    void initializingPluginFailedIsANetPluginInitError() {
      String line = OFI_HOST + "nccl_net_ofi_init:155 NCCL WARN NET/OFI Initializing plugin failed";
      ErrorSignature e = error(lines(line), "net_plugin_init");
      assertThat(e.detail()).isEqualTo("aws-ofi-nccl");
      assertThat(texts(e.evidence())).containsExactly(line);
    }

    @Test
    void selectedProviderIsRecorded() {
      LogFacts f = lines(OFI_HOST + "NCCL INFO NET/OFI Selected Provider is tcp (found 1 nics)");
      assertThat(f.signals().ofiProviders()).containsExactly("tcp");
    }

    @Test
    void gdrDisabledOnInstanceTypeIsAPluginGdrDecision() {
      String line = OFI_HOST
          + "platform_config_endpoint:626 NCCL WARN NET/OFI GDR disabled on GDR-supported instance type p4d.24xlarge";
      LogFacts f = lines(line);
      assertThat(f.gdrDecisions()).singleElement().satisfies(d -> {
        assertThat(d.reason()).isEqualTo("plugin");
        assertThat(d.enabled()).isFalse();
        assertThat(texts(d.evidence())).containsExactly(line);
      });
    }

    @Test
    void couldNotDisableCudaApiDisablingGdrIsAPluginGdrDecision() {
      String line = OFI_HOST + "NCCL INFO NET/OFI Could not disable CUDA API usage for HMEM, disabling GDR";
      LogFacts f = lines(line);
      assertThat(f.gdrDecisions()).extracting(GdrDecision::reason).containsExactly("plugin");
      assertThat(f.gdrDecisions().get(0).enabled()).isFalse();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class AggregatorWrappers {
    @Test
    void raysRepeatedSuffixIsNotPartOfTheNetworkName() {
      LogFacts f = lines("gpu-r1:1:2 [0] NCCL INFO Using network IB [repeated 7x across cluster]");
      assertThat(f.transport()).isEqualTo("IB");
    }

    @Test
    void raysRepeatedSuffixIsNotPartOfAnEnvValue() {
      LogFacts f = lines("gpu-r1:1:2 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0 [repeated 3x across cluster]");
      assertThat(f.env()).containsEntry("NCCL_IB_HCA", "mlx5_0");
    }

    @Test
    void markdownBoldAroundALineIsNotPartOfTheNetworkName() {
      LogFacts f = lines("**gpu-r1:1:2 [0] NCCL INFO Using network Socket**");
      assertThat(f.transport()).isEqualTo("Socket");
      assertThat(hosts(f)).containsExactly("gpu-r1");
    }

    @Test
    void markdownTableCellIsNotPartOfTheNetworkName() {
      LogFacts f = lines("| gpu-r1:1:2 [0] NCCL INFO Using network Socket |");
      assertThat(f.transport()).isEqualTo("Socket");
    }

    @Test
    void theLastLineOfACsvCellThatSpansLinesEndsBeforeItsClosingQuote() {
      LogFacts f = lines("\"2026-05-01T10:00:00Z\",\"w-0\",\"w-0:1:2 [0] NCCL INFO Using network Socket",
          "w-0:1:2 [0] NCCL INFO NCCL_IB_HCA set by environment to mlx5_0\"",
          "\"2026-05-01T10:00:01Z\",\"w-0:1:2 [0] NCCL INFO Using network Socket",
          "w-0:1:2 [0] NCCL INFO NCCL_SOCKET_IFNAME set by environment to \"\"net1\"\"\",\"w-0\"");
      assertThat(f.env()).containsEntry("NCCL_IB_HCA", "mlx5_0");
      assertThat(f.env().get("NCCL_SOCKET_IFNAME")).doesNotEndWith(",\"w-0\"").doesNotEndWith("\"\"\"");
    }

    @Test
    void aLineWhoseQuotesPairUpKeepsItsLastQuote() {
      // an even number of quotes: no cell closes on this line (the row's own, or a text that quotes)
      LogFacts f = lines("w-0:1:2 [0] NCCL INFO NCCL_IB_HCA set by environment to \"mlx5_0\"");
      assertThat(f.env()).containsEntry("NCCL_IB_HCA", "\"mlx5_0\"");
    }

    @Test
    void cloudWatchColumnsBeforeTheLineLeaveTheHost() {
      LogFacts f = lines("  | 2025-05-16T16:39:55.214-07:00 | host-a:81:2552 [0] NCCL INFO Using network Socket");
      assertThat(hosts(f)).containsExactly("host-a");
      assertThat(f.transport()).isEqualTo("Socket");
    }

    @Test
    void bareLineWithoutHostIsAnNcclLine() {
      LogFacts f = lines(" [0] NCCL INFO NET/IB : No device found.");
      assertThat(f.ncclLines()).isEqualTo(1);
      assertThat(f.ibNoDevice()).isTrue();
    }

    @Test
    void connectionBodyWithoutChannelHeadCountsOneGdrdmaNetworkChannel() {
      LogFacts f = lines("gpu-r1:1:2 [0] NCCL INFO 0[0] -> 8[0] [send] via NET/IB/0/GDRDMA");
      assertThat(f.netChannels().total()).isEqualTo(1);
      assertThat(f.netChannels().gdrdma()).isEqualTo(1);
      assertThat(f.netChannels().send()).isEqualTo(1);
    }

    @Test
    void emptyOobDoesNotBecomeAnInterfaceNamedColon() {
      // "OOB :" with nothing after it: there is no interface name to read
      LogFacts f = lines("gpu-r1:1:2 [0] NCCL INFO NET/IB : Using [0]mlx5_0:1/IB ; OOB :");
      assertThat(f.hcas()).extracting(h -> h.name()).containsExactly("mlx5_0");
      if (f.oob() != null) {
        assertThat(f.oob().name()).as("OOB interface name").isNotBlank().isNotEqualTo(":").doesNotContain(":");
      }
      assertThat(f.oobInterfaces()).as("OOB interfaces").noneMatch(n -> n.isBlank() || n.contains(":"));
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Kubernetes {
    @Test
    void kubectlPodPrefixShowsKubernetes() {
      LogFacts f = lines("[pod/trainer-0/pytorch] gpu-k1:1:2 [0] NCCL INFO Using network IB");
      assertThat(f.signals().kubernetes()).isTrue();
      assertThat(hosts(f)).containsExactly("gpu-k1");
    }

    @Test
    void trainingOperatorPodNameShowsKubernetes() {
      LogFacts f = lines("myjob-worker-3:1:2 [0] NCCL INFO Using network IB");
      assertThat(f.signals().kubernetes()).isTrue();
    }

    @Test
    void plainHostNameLeavesKubernetesUnknownNotFalse() {
      LogFacts f = lines("gpu-node-a07:1:2 [0] NCCL INFO Using network IB");
      assertThat(f.signals().kubernetes()).isNull();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Addresses {
    @Test
    void linkLocalIpv6InBootstrapListIsFlagged() {
      LogFacts f = lines("gpu-l1:1:2 [0] NCCL INFO Bootstrap : Using [0]ens5:172.31.0.137<0> "
          + "[1]veth75fa783:fe80::14ad:64ff:fe64:b31e%veth75fa783<0>");
      assertThat(f.signals().linkLocal()).isTrue();
      assertThat(f.signals().loopback()).isFalse();
    }

    @Test
    void routableBootstrapIsNotLinkLocal() {
      LogFacts f = lines("gpu-l1:1:2 [0] NCCL INFO Bootstrap : Using ens5:172.31.0.137<0>");
      assertThat(f.signals().linkLocal()).isFalse();
    }

    @Test
    void loopbackBootstrapIsFlagged() {
      LogFacts f = lines("gpu-l1:1:2 [0] NCCL INFO Bootstrap : Using lo:127.0.0.1<0>");
      assertThat(f.signals().loopback()).isTrue();
      assertThat(f.signals().linkLocal()).isFalse();
    }
  }

  // ------------------------------------------------------------------------------------------
  @Nested
  class Versions {
    @Test
    void frameworkPrintedVersionIsUsedWhenNcclsOwnLineIsAbsent() {
      LogFacts f = lines("NCCL version: 2.18.1", "gpu-v1:1:2 [0] NCCL INFO Using network Socket");
      assertThat(f.ncclVersions()).containsExactly("2.18.1");
      assertThat(f.signals().frameworkVersion()).isEqualTo("2.18.1");
    }

    @Test
    void pytorchTupleVersionIsReadAsDottedVersion() {
      LogFacts f = lines("NCCL version: (2, 18, 1)", "gpu-v1:1:2 [0] NCCL INFO Using network Socket");
      assertThat(f.ncclVersions()).containsExactly("2.18.1");
    }

    @Test
    void ncclsOwnVersionLineWinsOverTheFrameworks() {
      LogFacts f = lines("gpu-v1:1:2 [0] NCCL INFO NCCL version 2.21.5+cuda12.4", "NCCL version: 2.18.1",
          "gpu-v1:1:2 [0] NCCL INFO Using network Socket");
      assertThat(f.ncclVersions()).containsExactly("2.21.5+cuda12.4");
      assertThat(f.signals().frameworkVersion()).isNull();
    }

    @Test
    void twoHostsWithDifferentVersionsDiffer() {
      LogFacts f = lines("gpu-v1:101:101 [0] NCCL INFO NCCL version 2.23.4+cuda12.4",
          "gpu-v2:202:202 [0] NCCL INFO NCCL version 2.21.5+cuda12.4");
      assertThat(f.signals().versionsDiffer()).isTrue();
      assertThat(f.differs()).extracting(Difference::aspect).contains("version");
    }

    @Test
    void versionDifferenceQuotesTheDifferingHostsVersionLine() {
      String v2 = "gpu-v2:202:202 [0] NCCL INFO NCCL version 2.21.5+cuda12.4";
      LogFacts f = lines("gpu-v1:101:101 [0] NCCL INFO NCCL version 2.23.4+cuda12.4",
          "gpu-v1:102:102 [1] NCCL INFO NCCL version 2.23.4+cuda12.4", v2);
      Difference d = f.differs().stream().filter(x -> x.aspect().equals("version")).findFirst()
          .orElseThrow(() -> new AssertionError("no version difference in " + f.differs()));
      assertThat(d.who()).isEqualTo("gpu-v2");
      assertThat(texts(d.evidence())).contains(v2);
    }

    @Test
    void sameVersionOnTwoHostsDoesNotDiffer() {
      LogFacts f = lines("gpu-v1:101:101 [0] NCCL INFO NCCL version 2.21.5+cuda12.4",
          "gpu-v2:202:202 [0] NCCL INFO NCCL version 2.21.5+cuda12.4");
      assertThat(f.signals().versionsDiffer()).isFalse();
      assertThat(f.differs()).extracting(Difference::aspect).doesNotContain("version");
    }

    @Test
    void twoHostsBootstrappingOnDifferentInterfacesDiffer() {
      String other = "gpu-v2:202:202 [0] NCCL INFO Bootstrap : Using ib0:192.168.1.2<0>";
      LogFacts f = lines("gpu-v1:101:101 [0] NCCL INFO Bootstrap : Using eth0:10.0.0.1<0>", other);
      assertThat(f.differs()).extracting(Difference::aspect).contains("bootstrap");
      Difference d = f.differs().stream().filter(x -> x.aspect().equals("bootstrap")).findFirst().orElseThrow();
      assertThat(texts(d.evidence())).containsExactly(other);
    }
  }

  // ------------------------------------------------------------------------------------------
  /**
   * PyTorch's "Last error:" echoes NCCL's last WARN text alone on a line; behind a wrapper no table
   * knows (stern's pod, grep -n's line number) it is read where that wrapper ends on NCCL's lines,
   * not counting NCCL's own timestamp there, with a line number of another width.
   */
  @Nested
  class BareEchoAfterAnUnknownWrapper {
    private static final String WARN = "[2026-12-04 15:14:19] vm:475:475 [0] plugin/net.cc:379 NCCL WARN Failed to "
        + "initialize any NET plugin";
    private static final String ECHO = "Failed to initialize any NET plugin";

    @Test
    void afterSternsPodPastNcclsOwnTimestamp() {
      LogFacts f = lines("trainer-0 pytorch " + WARN, "trainer-0 pytorch Last error:", "trainer-0 pytorch " + ECHO);
      assertThat(f.ncclLines()).isEqualTo(2);
      assertThat(error(f, "net_none").count()).isEqualTo(2);
    }

    @Test
    void afterALineNumberOfMoreDigits() {
      LogFacts f = lines("9:" + WARN, "10:Last error:", "11:" + ECHO);
      assertThat(f.ncclLines()).isEqualTo(2);
    }

    @Test
    void afterCatNsPaddedColumn() {
      LogFacts f = lines(String.format("%6d\t", 9) + WARN, String.format("%6d\t", 10) + ECHO);
      assertThat(f.ncclLines()).isEqualTo(2);
    }

    @Test
    void notAfterAWrapperOfAnotherShape() {
      LogFacts f = lines("trainer-0 pytorch " + WARN, "worker-1: " + ECHO, "trainer-0 trainer " + ECHO);
      assertThat(f.ncclLines()).isEqualTo(1);
    }
  }
}
