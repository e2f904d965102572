package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An unwind line's ncclResult_t, by the name nccl.h gives it; a code it does not define, bare. */
class ResultTextTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "transport/net.cc:1302 -> 6|ncclResult 6 (ncclRemoteError)",
      "init.cc:1582 -> 5|ncclResult 5 (ncclInvalidUsage)",
      "proxy.cc:698 -> 4 [Progress Thread]|ncclResult 4 (ncclInvalidArgument)",
      "bootstrap.cc:270 -> 3|ncclResult 3 (ncclInternalError)",
      "misc/socket.cc:50 -> 2 (Connection refused)|ncclResult 2 (ncclSystemError)",
      "enqueue.cc:10 -> 1|ncclResult 1 (ncclUnhandledCudaError)",
      "group.cc:9 -> 8|ncclResult 8",
      "group.cc:9 -> 2147483647|ncclResult 2147483647",
  })
  void unwindLinesNameTheirResult(String text, String detail) {
    ErrorSignatures.Outcome o = ErrorSignatures.classify(text);
    assertThat(o.detail()).isEqualTo(detail);
    assertThat(ErrorSignatures.classify(text, false).detail()).isEqualTo(detail);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"init.cc:1 -> 0", "init.cc:1 -> 7", "init.cc:1 -> 99999999999"})
  void successInProgressAndCodesTooLargeAreNoFailure(String text) {
    assertThat(ErrorSignatures.classify(text).kind()).isNull();
  }
}
