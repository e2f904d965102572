package dev.nccltriage.source.probe.parse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the module lines of {@code lsmod} ({@code name size usedcount [by,...]}) or
 * {@code /proc/modules} ({@code name size refcount deps state address}) and says which of
 * {@code nvidia_peermem}, {@code nv_peer_mem}, {@code ib_core} and {@code nvidia} are listed
 * (probe-formats.md §11). Only the first column counts: {@code ib_core ... nvidia_peermem} in a
 * used-by list does not make peermem loaded. Nothing else is interpreted (modprobe and dmesg
 * errors are ignored). Never throws.
 */
public final class PeerMem {

  /**
   * Whether each module has a line of its own; {@code moduleLines} counts all module lines
   * recognised (0 means the text had no lsmod/proc-modules content at all).
   */
  public record Result(
      boolean nvidiaPeermem, boolean nvPeerMem, boolean ibCore, boolean nvidia, int moduleLines) {}

  private static final Pattern MODULE =
      Pattern.compile("^([A-Za-z0-9_\\-]+)\\s+(\\d+)\\s+(-?\\d+|-)(?:\\s+.*)?$");

  private PeerMem() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    boolean peermem = false;
    boolean nvPeer = false;
    boolean ibCore = false;
    boolean nvidia = false;
    int lines = 0;
    try {
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        if (line.length() > 4096) {
          continue;
        }
        Matcher m = MODULE.matcher(line);
        if (!m.matches()) {
          continue;
        }
        lines++;
        switch (m.group(1).replace('-', '_')) {
          case "nvidia_peermem" -> peermem = true;
          case "nv_peer_mem" -> nvPeer = true;
          case "ib_core" -> ibCore = true;
          case "nvidia" -> nvidia = true;
          default -> { }
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(peermem, nvPeer, ibCore, nvidia, lines);
  }
}
