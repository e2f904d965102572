package dev.nccltriage.source.probe.parse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code /proc/<pid>/status} (probe-formats.md §10): the capability masks and the
 * {@code Uid:}/{@code Gid:} lines. Other lines are ignored. For joined pastes the last value of
 * each key wins (split with {@link Text#pastes} to read each). Never throws.
 */
public final class ProcStatus {

  /** {@code CAP_IPC_LOCK}, the bit that lets a process lock more than {@code RLIMIT_MEMLOCK}. */
  public static final int CAP_IPC_LOCK = 14;
  /** {@code CAP_NET_RAW}. */
  public static final int CAP_NET_RAW = 13;
  /** {@code CAP_SYS_ADMIN}. */
  public static final int CAP_SYS_ADMIN = 21;

  /**
   * The masks (null when the line was absent or not hex) and the uid/gid columns (real,
   * effective, saved, filesystem; null when absent). {@code name} is the {@code Name:} line.
   */
  public record Result(
      String name,
      Long capInh,
      Long capPrm,
      Long capEff,
      Long capBnd,
      Long capAmb,
      Integer uidReal,
      Integer uidEffective,
      Integer uidSaved,
      Integer uidFs,
      Integer gidReal,
      Integer gidEffective) {

    /** True when {@code capEff} was read and has {@code CAP_IPC_LOCK}; null when not read. */
    public Boolean effectiveIpcLock() {
      return capEff == null ? null : hasCapability(capEff, CAP_IPC_LOCK);
    }
  }

  private static final Pattern KV = Pattern.compile("^([A-Za-z_]+)\\s*:\\s*(.*)$");

  private ProcStatus() {}

  /** True when bit {@code cap} (0..63) is set in {@code mask}. */
  public static boolean hasCapability(long mask, int cap) {
    return cap >= 0 && cap < 64 && ((mask >>> cap) & 1L) == 1L;
  }

  /** A hex capability mask ({@code 00000000a80425fb}, {@code a80465fb}, {@code 0x4000}) or null. */
  public static Long parseMask(String hex) {
    return Text.hexToLong(hex == null ? null : Text.clean(hex));
  }

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    String name = null;
    Long inh = null;
    Long prm = null;
    Long eff = null;
    Long bnd = null;
    Long amb = null;
    Integer[] uid = new Integer[4];
    Integer[] gid = new Integer[4];
    try {
      for (String raw : Text.lines(text)) {
        String line = Text.clean(raw);
        Matcher m = KV.matcher(line);
        if (!m.matches()) {
          continue;
        }
        String v = m.group(2).trim();
        String first = v.isEmpty() ? "" : Text.tokens(v)[0];
        switch (m.group(1)) {
          case "Name" -> name = v.isEmpty() ? null : v;
          case "CapInh" -> inh = orKeep(parseMask(first), inh);
          case "CapPrm" -> prm = orKeep(parseMask(first), prm);
          case "CapEff" -> eff = orKeep(parseMask(first), eff);
          case "CapBnd" -> bnd = orKeep(parseMask(first), bnd);
          case "CapAmb" -> amb = orKeep(parseMask(first), amb);
          case "Uid" -> ids(v, uid);
          case "Gid" -> ids(v, gid);
          default -> { }
        }
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return new Result(name, inh, prm, eff, bnd, amb, uid[0], uid[1], uid[2], uid[3], gid[0],
        gid[1]);
  }

  private static Long orKeep(Long parsed, Long old) {
    return parsed != null ? parsed : old;
  }

  private static void ids(String v, Integer[] into) {
    String[] t = Text.tokens(v);
    for (int i = 0; i < into.length && i < t.length; i++) {
      into[i] = Text.toInt(t[i]);
    }
  }
}
