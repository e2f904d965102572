package dev.nccltriage.facts;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The site's expectations: flags over the file, sizes as a person writes them. */
class ExpectationsTest {

  @Test
  void aFlagWinsOverTheFileAndTheFileFillsWhatNoFlagSet() {
    Expectations file = new Expectations(8, "net1", false, 1L << 20);
    assertThat(new Expectations(4, "net2", true, 1L << 30).over(file))
        .isEqualTo(new Expectations(4, "net2", true, 1L << 30));
    assertThat(Expectations.NONE.over(file)).isEqualTo(file);
  }

  @Test
  void aZeroSizeIsZeroBytes() {
    assertThat(Expectations.parseSize("0")).isZero();
    assertThat(Expectations.parseSize("64k")).isEqualTo(64L << 10);
  }
}
