package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.facts.ErrorKind;
import org.junit.jupiter.api.Test;

/**
 * What {@link ErrorSignatures#classify} makes of one error text: the kind and detail a report
 * shows, and whether the text belongs to a family NCCL prints at all.
 */
class ErrorSignatureMeaningsTest {

  @Test
  void aVerbsCallWithoutItsOwnKindIsNamedInTheDetail() {
    // ibv_create_cq has no kind of its own: the detail is all that tells the user which call failed
    ErrorSignatures.Outcome bare = ErrorSignatures.classify("Call to ibv_create_cq failed");
    assertThat(bare.kind()).isEqualTo(ErrorKind.IBV_OTHER);
    assertThat(bare.detail()).isEqualTo("ibv_create_cq");

    ErrorSignatures.Outcome withError =
        ErrorSignatures.classify("Call to ibv_create_cq failed with error Cannot allocate memory");
    assertThat(withError.kind()).isEqualTo(ErrorKind.IBV_OTHER);
    assertThat(withError.detail()).isEqualTo("ibv_create_cq: Cannot allocate memory");
  }

  @Test
  void aPluginThatFailsToLoadForAnyReasonButAbsenceIsAnError() {
    ErrorSignatures.Outcome broken =
        ErrorSignatures.classify("NET/Plugin : Plugin load returned 11 : undefined symbol: ncclNetPlugin_v9.");
    assertThat(broken.kind()).isEqualTo(ErrorKind.NET_PLUGIN_LOAD);
    assertThat(broken.detail()).isEqualTo("undefined symbol: ncclNetPlugin_v9");

    // no plugin installed: NCCL goes on with its internal transports
    ErrorSignatures.Outcome absent = ErrorSignatures.classify(
        "NET/Plugin : Plugin load returned 2 : libnccl-net.so: cannot open shared object file: No such file or directory");
    assertThat(absent.kind()).isNull();
    assertThat(absent.known()).isTrue();
  }

  @Test
  void aGidFailureIsFoundWhenTheTextStartsWithGid() {
    // a WARN's signature may start anywhere, so the text can begin with the word itself; "index"
    // holds no other "id", so only the leading "GID" tells the guard that the text is about a GID
    ErrorSignatures.Outcome o = ErrorSignatures.classify("GID index 3 not found");
    assertThat(o.kind()).isEqualTo(ErrorKind.GID);
  }

  @Test
  void netTextsNoSignatureClaimsAreStillNcclLinesButOtherTextIsNot() {
    // lines whose prefix was stripped count as NCCL output only when a family knows them
    assertThat(ErrorSignatures.classify("NET/IB : Dumping port attributes of mlx5_0").known()).isTrue();
    assertThat(ErrorSignatures.classify("NET/Socket : Connecting to 10.0.0.2<4444>").known()).isTrue();
    assertThat(ErrorSignatures.classify("NET/Plugin : Trying to load libnccl-net-ofi.so").known()).isTrue();
    assertThat(ErrorSignatures.classify("Epoch 3 finished in 41.2 s").known()).isFalse();
  }
}
