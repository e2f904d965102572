package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PhraseSet} answers what a search of each phrase answers, and so {@link
 * FrameworkFailures#kind} answers what its phrase-by-phrase searches did ({@link #kindOneByOne}, kept
 * here as the definition), on random lines made of its phrases, their near misses and other bytes.
 */
class PhraseSetTest {
  private static final String[] PHRASES = {"CUDA out of memory", "RESOURCE_EXHAUSTED: Out of memory",
    "CUDA error: out of memory", "(exitcode: ", "exits with return code = ", "returned non-zero exit status ",
    "exited on signal 9", "Killed", "died with <Signals.SIGKILL: 9>", "allocate shared memory(shm)",
    "out of shared memory", "insufficient shared memory", "No CUDA GPUs are available",
    "no CUDA-capable device is detected", "CUDA driver version is insufficient for CUDA runtime version",
    "NVIDIA driver on your system is too old", "Watchdog caught collective operation timeout",
    "waiting for clients", "store based barrier", "RendezvousTimeoutError", "via c10d key-value store",
    "connect to (", "connect() timed out", "connect to any network address of (",
    "connection to the C10d store has failed"};

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.ISO_8859_1);
  }

  /** The definition: each phrase searched alone, in the order of precedence. */
  static int kindOneByOne(byte[] b, int s, int e) {
    if (has(b, s, e, 0, 1, 2)) {
      return FrameworkFailures.GPU_OUT_OF_MEMORY;
    }
    boolean code = false;
    for (int k = 3; k <= 5; k++) {
      int at = Bytes.indexOf(b, s, e, ascii(PHRASES[k]));
      if (at >= 0) {
        int i = at + PHRASES[k].length();
        for (String c : new String[] {"-9", "137"}) {
          int end = i + c.length();
          code |= Bytes.startsWith(b, i, e, ascii(c)) && (end == e || !Bytes.isDigit(b[end]));
        }
      }
    }
    int signal = Bytes.indexOf(b, s, e, ascii(PHRASES[6]));
    int after = signal + PHRASES[6].length();
    if (code || signal >= 0 && (after == e || !Bytes.isDigit(b[after])) || CrashMarkers.hasKillReport(b, s, e)
        || has(b, s, e, 8)) {
      return FrameworkFailures.RANK_KILLED;
    }
    return has(b, s, e, 9, 10, 11) ? FrameworkFailures.SHM_EXHAUSTED
        : has(b, s, e, 12, 13) ? FrameworkFailures.NO_GPU
        : has(b, s, e, 14, 15) ? FrameworkFailures.DRIVER_TOO_OLD
        : has(b, s, e, 16) ? FrameworkFailures.COLLECTIVE_TIMEOUT
        : has(b, s, e, 17, 18, 19) ? FrameworkFailures.STORE_CLIENTS
        : has(b, s, e, 20) ? FrameworkFailures.STORE_LOST
        : has(b, s, e, 21, 22, 23, 24) ? FrameworkFailures.STORE_CONNECT : 0;
  }

  private static boolean has(byte[] b, int s, int e, int... phrases) {
    for (int k : phrases) {
      if (Bytes.indexOf(b, s, e, ascii(PHRASES[k])) >= 0) {
        return true;
      }
    }
    return false;
  }

  private static final String[] OTHER = {" ", "  ", "9", "90", "-9", "137", "1370", ":", "(", ")", "<", "x", "f",
    "b", "k", "K", "C", "CUDA", "connect", "shared memory", "[rank3]:[E501 10:00:00.000 481 ProcessGroupNCCL.cpp:616] ",
    "WorkNCCL(SeqNum=5, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000)", "\u00e9", "\u0001",
    "line 12: 4242 Killed", "Killed process 4242 (python)", "of", "for", "based", "key"};

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(ints = {1, 2, 3, 4, 5, 6, 7, 8})
  void kindAnswersAsTheSearchesOneByOne(int seed) {
    Random random = new Random(seed);
    for (int n = 0; n < 3000; n++) {
      StringBuilder line = new StringBuilder();
      int pieces = 1 + random.nextInt(12);
      for (int j = 0; j < pieces; j++) {
        if (random.nextInt(4) == 0) {
          String p = PHRASES[random.nextInt(PHRASES.length)];
          // the phrase whole, or cut short by a byte or two (a near miss at either end)
          int cut = random.nextInt(3) == 0 ? random.nextInt(Math.min(3, p.length())) : 0;
          line.append(random.nextBoolean() ? p.substring(cut) : p.substring(0, p.length() - cut));
        } else {
          line.append(OTHER[random.nextInt(OTHER.length)]);
        }
      }
      byte[] text = line.toString().getBytes(StandardCharsets.UTF_8);
      int pad = random.nextInt(9);
      // anchor bytes all around: nothing read outside [s, e)
      byte[] b = Framed.within(text, pad, random.nextInt(9), (byte) 'C');
      int e = pad + text.length;
      assertThat(FrameworkFailures.kind(b, pad, e)).as("seed %d line %d: %s", seed, n, line)
          .isEqualTo(kindOneByOne(b, pad, e));
    }
  }

  @Test
  void eachPhraseIsFoundWhereverItStandsAndNotOneByteShort() {
    byte[][] phrases = new byte[PHRASES.length][];
    for (int k = 0; k < PHRASES.length; k++) {
      phrases[k] = ascii(PHRASES[k]);
    }
    PhraseSet set = new PhraseSet(phrases);
    for (int k = 0; k < PHRASES.length; k++) {
      for (int pad = 0; pad < 9; pad++) {
        byte[] b = ascii("x".repeat(pad) + PHRASES[k] + "(b");
        int e = pad + PHRASES[k].length();
        assertThat(set.present(b, 0, b.length) & 1L << k).as(PHRASES[k] + " at " + pad).isNotZero();
        assertThat(set.present(b, pad, e) & 1L << k).as(PHRASES[k] + " alone").isNotZero();
        assertThat(set.present(b, pad, e - 1) & 1L << k).as(PHRASES[k] + " cut at its end").isZero();
        assertThat(set.present(b, pad + 1, e) & 1L << k).as(PHRASES[k] + " cut at its start").isZero();
      }
    }
  }

  @Test
  void aPhraseWithoutAnAnchorByteIsRefused() {
    assertThatThrownBy(() -> new PhraseSet(ascii("out of memory"), ascii("shared memory")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shared memory");
  }
}
