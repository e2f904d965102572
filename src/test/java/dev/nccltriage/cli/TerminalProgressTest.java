package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.source.log.Progress;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TerminalProgressTest {
  /** A clock that moves one second each time it is read, so every advance may print. */
  private static Clock ticking() {
    return new Clock() {
      private long ms;

      @Override
      public ZoneOffset getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        ms += 1000;
        return Instant.ofEpochMilli(ms);
      }
    };
  }

  private static Context ctx(ByteArrayOutputStream err, boolean stderrTty) {
    return new Context(new ByteArrayInputStream(new byte[0]), new PrintStream(new ByteArrayOutputStream()),
        new PrintStream(err, true, StandardCharsets.UTF_8), Map.of(), Path.of("."), false, stderrTty, ticking());
  }

  @Test
  void showsProgressOfALargeInputOnATerminalAndErasesIt() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Progress p = TerminalProgress.forContext(ctx(err, true));
    p.expect(200L << 20);
    p.advance(100L << 20);
    p.advance(50L << 20);
    p.done();
    String s = err.toString(StandardCharsets.UTF_8);
    assertThat(s).contains("reading log: 100 of 200 MiB (50%)").contains("150 of 200 MiB (75%)").endsWith("\r\u001b[K");
  }

  @Test
  void staysSilentWithoutATerminalOrForSmallInputs() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Progress notTty = TerminalProgress.forContext(ctx(err, false));
    notTty.expect(200L << 20);
    notTty.advance(100L << 20);
    notTty.done();
    Progress small = TerminalProgress.forContext(ctx(err, true));
    small.expect(1L << 20);
    small.advance(1L << 20);
    small.done();
    assertThat(err.size()).isZero();
  }

  @Test
  void withoutATotalItCountsMibAndLinesPerSecond() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Progress p = TerminalProgress.forContext(ctx(err, true));
    p.expect(Progress.UNKNOWN);
    p.advance(10L << 20, 100_000);
    p.advance(10L << 20, 100_000);
    p.done();
    String s = err.toString(StandardCharsets.UTF_8);
    assertThat(s).contains("reading log: 20 MiB, 200,000 lines (").contains(" lines/s)").doesNotContain(" of ")
        .doesNotContain("%");
  }

  @Test
  void neverMoreThanAHundredPercent() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Progress p = TerminalProgress.forContext(ctx(err, true));
    p.expect(300L << 20);
    p.advance(250L << 20);
    p.advance(52L << 20); // a log still being written grew while it was read
    p.done();
    String s = err.toString(StandardCharsets.UTF_8);
    assertThat(s).contains("300 of 300 MiB (100%)").doesNotContain("302 of").doesNotContain("(101%)");
  }
}
