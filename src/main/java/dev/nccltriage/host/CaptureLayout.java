package dev.nccltriage.host;

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
}
