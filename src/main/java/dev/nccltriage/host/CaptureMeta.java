package dev.nccltriage.host;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * {@code .nccl-triage/capture.properties}: read with {@link Properties}, written by hand as sorted
 * {@code key=value} lines with no date comment (so two captures of the same facts are
 * byte-identical) and with only the escapes {@link Properties#load} needs; colons in values stay
 * bare, so a redactor sees addresses as they are.
 */
public final class CaptureMeta {
  /** The process whose /proc/PID files and NCCL_* a capture made with --pid holds. */
  public static final String PID = "pid";
  /** Whose NCCL_* were recorded: "this process" or "pid N" (the only record of --pid before "pid"). */
  public static final String ENV_OF = "envOf";
  private static final java.util.regex.Pattern ENV_OF_PID = java.util.regex.Pattern.compile("pid (\\d{1,18})");

  private CaptureMeta() {}

  /**
   * The pid the capture was made for: {@code pid}, else the one {@code envOf} names (captures made
   * before {@code pid} was recorded); null for a capture of the capturing process itself, or one
   * that does not say. A value that is not a number reads as absent.
   */
  public static Long pid(Map<String, String> meta) {
    String pid = meta.get(PID);
    if (pid != null && pid.strip().matches("\\d{1,18}")) {
      return Long.valueOf(pid.strip());
    }
    java.util.regex.Matcher m = ENV_OF_PID.matcher(meta.getOrDefault(ENV_OF, "").strip());
    return m.matches() ? Long.valueOf(m.group(1)) : null;
  }

  /** The entries, sorted; empty when the capture has no properties file. */
  public static Map<String, String> read(Path captureDir) throws IOException {
    Map<String, String> out = new TreeMap<>();
    Properties p = new Properties();
    try (InputStream in = Files.newInputStream(captureDir.resolve(CaptureLayout.META))) {
      p.load(in);
    } catch (NoSuchFileException e) {
      return out;
    }
    p.stringPropertyNames().forEach(k -> out.put(k, p.getProperty(k)));
    return out;
  }

  /** Adds (or replaces) entries, keeping the others; writes atomically. */
  public static synchronized void merge(Path captureDir, Map<String, String> entries) throws IOException {
    Map<String, String> all = read(captureDir);
    entries.forEach((k, v) -> all.put(k, v == null ? "" : v));
    StringBuilder sb = new StringBuilder();
    all.forEach((k, v) -> sb.append(escape(k, true)).append('=').append(escape(v, false)).append('\n'));
    writeAtomically(captureDir.resolve(CaptureLayout.META), sb, StandardCharsets.ISO_8859_1);
  }

  /** Writes through a temporary file and a rename, so a reader never sees half a file. */
  static void writeAtomically(Path file, CharSequence text, java.nio.charset.Charset cs) throws IOException {
    Files.createDirectories(file.getParent());
    Path tmp = Files.createTempFile(file.getParent(), ".capture", ".tmp");
    try {
      Files.writeString(tmp, text, cs);
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  static String escape(String s, boolean key) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '\t' -> sb.append("\\t");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\f' -> sb.append("\\f");
        case ' ' -> sb.append(key || i == 0 ? "\\ " : " ");
        case '=', ':' -> sb.append(key ? "\\" : "").append(c);
        case '#', '!' -> sb.append(key && i == 0 ? "\\" : "").append(c);
        default -> {
          if (c < 0x20 || c > 0x7e) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.toString();
  }
}
