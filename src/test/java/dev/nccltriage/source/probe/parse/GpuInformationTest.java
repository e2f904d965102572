package dev.nccltriage.source.probe.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The Model line of /proc/driver/nvidia/gpus/BUS/information, as the driver writes it (TABs, a space). */
class GpuInformationTest {
  @Test
  void readsTheModelOfTheSampleGpus() throws IOException {
    assertThat(GpuInformation.model(Files.readString(Path.of(
        "samples/captures/healthy-8hca-gdr-net1/proc/driver/nvidia/gpus/0000:1b:00.0/information"))))
        .isEqualTo("NVIDIA H100 80GB HBM3");
    assertThat(GpuInformation.model(Files.readString(Path.of(
        "samples/captures/secondary-down-gh200/proc/driver/nvidia/gpus/0009:01:00.0/information"))))
        .isEqualTo("NVIDIA GH200 480GB");
  }

  @Test
  void noModelLineIsNoModel() {
    assertThat(GpuInformation.model("IRQ:   \t\t 473\nBus Location: \t 0000:1b:00.0\n")).isNull();
    assertThat(GpuInformation.model("Model: \t\t \n")).isNull();
    assertThat(GpuInformation.model("")).isNull();
    assertThat(GpuInformation.model(null)).isNull();
    assertThat(GpuInformation.model("Model: " + "x".repeat(300) + "\n")).isNull();
  }

  @Test
  void crLineEndsAndIndentAreTolerated() {
    assertThat(GpuInformation.model("  Model: \t NVIDIA A100-SXM4-80GB\r\nIRQ: 1\r\n")).isEqualTo("NVIDIA A100-SXM4-80GB");
  }
}
