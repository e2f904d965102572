package dev.nccltriage.source;

import static dev.nccltriage.source.Logs.DEFAULT_MAX_LINE;

import dev.nccltriage.facts.LogFacts;
import dev.nccltriage.source.log.CsvExports;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A file read in parts gives what one pass gives, on the logs nobody here made: the sample and
 * corpus logs cut, glued, wrapped, interleaved, exported as CSV with cells that span lines, each a
 * few ways at once (a seed picks them). The parts start at every few bytes (parallelMinBytes=1), so
 * a part may begin inside a wrapper, a cell or a glued record. Whatever state the parser keeps from
 * line to line (its prefix cache, the channel lane, unquoting) must not change what it finds.
 *
 * <p>A part starts from what the NCCL lines just before it teach (where a wrapper no table knows
 * ends: {@code LinesBefore}), so a bare message behind one (PyTorch's "Last error:" echo of a WARN's
 * text) is read as one pass reads it: where the last NCCL line's wrapper ended, whether its prefix
 * was parsed or found in the cache. With {@code -DmutatedSeeds=8000}, 2 logs differ: a pre-2.3
 * record with a 2.21+ bare version line glued after it (6077), CSV rows glued into one line (6578).
 */
class MutatedLogsPartsTest {
  @TempDir static Path dir;
  private static List<byte[]> logs;

  @BeforeAll
  static void load() throws IOException {
    logs = new ArrayList<>();
    for (Path p : Logs.allLogs()) { // samples, corpus excerpts, recorded runs
      logs.add(Files.readAllBytes(p));
    }
  }

  /**
   * Logs that once differed, run whatever the count: a wrapper no table knows before the host on
   * some lines of a process and not on others, a CSV cell's line read from the host on (where the
   * last NCCL line's wrapper ended, and whether it had one, depended on whether its prefix was
   * found in the cache: a part starts with an empty one).
   */
  private static final int[] ONCE_DIFFERED = {2354, 5609, 7934};

  /** Seeds 1 to {@code -DmutatedSeeds} (80) and {@link #ONCE_DIFFERED}, or those of {@code -DmutatedSeedList=2354,5609} alone. */
  static Stream<Integer> seeds() {
    String list = System.getProperty("mutatedSeedList", "");
    int n = Integer.getInteger("mutatedSeeds", 80);
    return list.isBlank()
        ? IntStream.concat(IntStream.rangeClosed(1, n), IntStream.of(ONCE_DIFFERED).filter(seed -> seed > n)).boxed()
        : Stream.of(list.split(",")).map(String::trim).map(Integer::valueOf);
  }

  private static final String[] WRAPPERS = {"2026-05-01T10:00:00.123456789Z stdout F ", "[pod/trainer-0/main] ",
    "[1,0]<stdout>:", "0: ", "**", "| ", "[    12.000500] ", "worker-1: ", "trainer-0 pytorch "};

  private static List<String> lines(byte[] b) {
    return new ArrayList<>(List.of(new String(b, StandardCharsets.ISO_8859_1).split("\n", -1)));
  }

  /** The log of {@code seed}: one to three mutations of one log. */
  static byte[] mutated(int seed) {
    Random r = new Random(seed);
    List<String> lines = lines(logs.get(r.nextInt(logs.size())));
    int n = 1 + r.nextInt(3);
    for (int k = 0; k < n; k++) {
      switch (r.nextInt(9)) {
        case 0 -> { // an excerpt
          int from = r.nextInt(lines.size());
          lines = new ArrayList<>(lines.subList(from, Math.min(lines.size(), from + 1 + r.nextInt(lines.size()))));
        }
        case 1 -> { // records glued into one line
          for (int j = 0; j < 5 && lines.size() > 1; j++) {
            int i = r.nextInt(lines.size() - 1);
            lines.set(i, lines.get(i) + lines.remove(i + 1));
          }
        }
        case 2 -> lines.replaceAll(l -> l + "\r");
        case 3 -> {
          String w = WRAPPERS[r.nextInt(WRAPPERS.length)];
          lines.replaceAll(l -> w + l);
        }
        case 4 -> { // another log's lines between its lines
          List<String> other = lines(logs.get(r.nextInt(logs.size())));
          List<String> out = new ArrayList<>();
          for (int i = 0; i < Math.max(lines.size(), other.size()); i++) {
            if (i < lines.size()) {
              out.add(lines.get(i));
            }
            if (i < other.size()) {
              out.add(other.get(i));
            }
          }
          lines = out;
        }
        case 5 -> // a log UI's CSV download of multi-line events, the message last or not
            lines = lines(CsvExports.multiLineCells(lines, r, r.nextBoolean()).getBytes(StandardCharsets.ISO_8859_1));
        case 6 -> { // a JSON record per line, its text cut short now and then
          lines.replaceAll(l -> "{\"log\":\"" + l.replace("\\", "\\\\").replace("\"", "\\\"")
              + (r.nextInt(8) == 0 ? "" : "\\n\",\"stream\":\"stdout\"}"));
        }
        case 7 -> { // the log twice: every thread's lines again
          List<String> twice = new ArrayList<>(lines);
          twice.addAll(lines);
          lines = twice;
        }
        default -> { // a line repeated into a long one
          if (!lines.isEmpty()) {
            int i = r.nextInt(lines.size());
            lines.set(i, lines.get(i).repeat(2 + r.nextInt(200)));
          }
        }
      }
    }
    return String.join("\n", lines).getBytes(StandardCharsets.ISO_8859_1);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void partsGiveWhatOnePassGives(int seed) throws Exception {
    Path file = Files.write(dir.resolve("mutated-" + seed + ".log"), mutated(seed));
    LogFacts one = Logs.parseFile(file, 1, DEFAULT_MAX_LINE, Long.MAX_VALUE);
    for (int threads : new int[] {2, 5}) {
      ParallelChunksTest.assertSameFacts(Logs.parseFile(file, threads, DEFAULT_MAX_LINE, 1), one,
          "seed " + seed + ", " + threads + " threads");
    }
  }
}
