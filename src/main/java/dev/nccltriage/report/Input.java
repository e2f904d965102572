package dev.nccltriage.report;

import dev.nccltriage.facts.InputStats;
import java.util.ArrayList;
import java.util.List;

/**
 * One input of a run, the same shape in every command's document ({@code inputs[]} of the
 * envelope): a consumer reads {@code source} and {@code kind} anywhere, and a count that this kind
 * of input does not have (a manifest has no NCCL lines, a capture no lines) is null, never 0 or "".
 *
 * @param source the path as given, or "-" for stdin
 * @param kind what it was read as: {@link #NCCL_LOG}, {@link #NCCL_TESTS}, {@link #MANIFEST} or
 *     {@link #CAPTURE}
 */
public record Input(String source, String kind, Long lines, Long ncclLines, Long unplacedLines,
    Long truncatedLines, Long objects, Long podTemplates) {
  public static final String NCCL_LOG = "nccl-log";
  public static final String NCCL_TESTS = "nccl-tests";
  public static final String MANIFEST = "manifest";
  public static final String CAPTURE = "capture";

  /** A log file (or stdin) as the log reader counted it. */
  public static Input log(InputStats s) {
    return new Input(s.source(), NCCL_LOG, s.lines(), s.ncclLines(), s.unplacedLines(), s.truncatedLines(),
        null, null);
  }

  public static List<Input> logs(List<InputStats> stats) {
    return stats.stream().map(Input::log).toList();
  }

  /** nccl-tests output: its lines, the NCCL lines among them, the lines cut at the length limit. */
  public static Input ncclTests(String source, long lines, long ncclLines, long truncatedLines) {
    return new Input(source, NCCL_TESTS, lines, ncclLines, null, truncatedLines, null, null);
  }

  /** A manifest: its lines, the objects with a pod template, and the templates. */
  public static Input manifest(String source, long lines, long objects, long podTemplates) {
    return new Input(source, MANIFEST, lines, null, null, null, objects, podTemplates);
  }

  /** A capture folder or archive replayed (--root, --capture): not line-based, so no counts. */
  public static Input capture(String source) {
    return new Input(source, CAPTURE, null, null, null, null, null, null);
  }

  /** The capture that --root or --capture names (none when the live system was read), then the logs. */
  public static List<Input> of(Object root, Object capture, List<InputStats> logs) {
    List<Input> out = new ArrayList<>();
    if (root != null) {
      out.add(capture(root.toString()));
    } else if (capture != null) {
      out.add(capture(capture.toString()));
    }
    if (logs != null) {
      out.addAll(logs(logs));
    }
    return List.copyOf(out);
  }
}
