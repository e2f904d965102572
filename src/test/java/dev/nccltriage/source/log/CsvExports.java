package dev.nccltriage.source.log;

import java.util.List;
import java.util.Random;

/**
 * A log UI's CSV download of multi-line events (Datadog's, Kibana's): every cell quoted, a quote
 * inside doubled, and an event's line breaks kept inside its cell (RFC 4180), so an event's lines
 * after the first are lines of their own and the last one closes the cell. The tests that read
 * such exports (one pass, parts, mutated logs) write them here.
 */
public final class CsvExports {
  private CsvExports() {}

  /**
   * The rows, one to five of {@code lines} an event ({@code r} picks), each with a time column
   * first and a host column; {@code messageLast}: the message is the row's last column, else the
   * host follows it. No header row.
   */
  public static String multiLineCells(List<String> lines, Random r, boolean messageLast) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < lines.size(); ) {
      int n = Math.min(lines.size() - i, 1 + r.nextInt(5));
      String cell = "\"" + String.join("\n", lines.subList(i, i + n)).replace("\"", "\"\"") + "\"";
      sb.append("\"2026-05-01T10:00:00.000Z\",").append(messageLast ? "\"train-0\"," + cell : cell + ",\"train-0\"")
          .append('\n');
      i += n;
    }
    return sb.toString();
  }
}
