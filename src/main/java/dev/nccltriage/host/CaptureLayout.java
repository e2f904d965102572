package dev.nccltriage.host;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The capture layout: a tree mirroring the /dev, /sys and /proc paths the ladder reads, plus a
 * {@code .nccl-triage/} folder holding recorded commands, the NCCL_* environment and open results.
 */
public final class CaptureLayout {
  public static final String META_DIR = ".nccl-triage";
  public static final String COMMANDS = META_DIR + "/commands";
  /** NAME=VALUE lines of the NCCL_* environment (of this process or of --pid). */
  public static final String ENV = META_DIR + "/env";
  /** "PATH<TAB>RESULT" lines: whether each device could be opened when captured (ok, denied, ...). */
  public static final String OPENS = META_DIR + "/opens.tsv";
  /** Free-form facts about the capture: tool version, time, pid, whether redacted. */
  public static final String META = META_DIR + "/capture.properties";

  private CaptureLayout() {}

  /**
   * What a folder lacks to be replayed: {@code proc/} and {@code sys/} (without them every probe
   * finds nothing, and "nothing" reads as a confident verdict), and with {@code needMeta} the
   * properties file that {@code capture} always writes. Empty for a capture; nothing for "/".
   * Folders reached through a link that leaves the folder do not count.
   */
  public static List<String> missing(Path root, boolean needMeta) {
    RootFiles files = new RootFiles(root);
    List<String> out = new ArrayList<>();
    if (files.live()) {
      return out;
    }
    for (String dir : List.of("proc", "sys")) {
      if (!files.isDirectory("/" + dir)) {
        out.add(dir + "/");
      }
    }
    if (needMeta && !files.read("/" + META, 1).status().equals("ok")) {
      out.add(META);
    }
    return out;
  }
}
