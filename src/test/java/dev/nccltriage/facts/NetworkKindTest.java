package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Whether the libfabric provider aws-ofi-nccl chose moves data with RDMA. */
class NetworkKindTest {

  @ParameterizedTest(name = "provider {0}: RDMA {1}")
  @CsvSource({
      "efa, true",
      "EFA, true",
      "verbs;ofi_rxm, true",
      "cxi, true",
      "psm3, true",
      "opx, true",
      "tcp;ofi_rxm, false",
      "sockets, false",
      "udp, false",
      "shm, false",
      "foo, ",
      ", ",
  })
  void aProviderIsRdmaNotRdmaOrUnknown(String provider, Boolean rdma) {
    assertThat(NetworkKind.providerRdma(provider)).isEqualTo(rdma);
  }
}
