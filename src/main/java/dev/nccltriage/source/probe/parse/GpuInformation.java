package dev.nccltriage.source.probe.parse;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the {@code Model:} line of {@code /proc/driver/nvidia/gpus/BUS/information}
 * ({@code Model: \t\t NVIDIA GH200 480GB}). Never throws.
 */
public final class GpuInformation {
  private static final Pattern MODEL = Pattern.compile("^Model:\\s*(\\S.*)$");

  private GpuInformation() {}

  /** The GPU's model name, or null when the text has no {@code Model:} line. */
  public static String model(String text) {
    for (String line : Text.lines(text)) {
      Matcher m = MODEL.matcher(line.strip());
      if (m.matches() && m.group(1).length() <= 200) {
        return m.group(1).strip();
      }
    }
    return null;
  }
}
