package dev.nccltriage.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.io.IOException;
import java.io.OutputStream;

/**
 * {@code -o yaml}: the document {@code -o json} writes, as YAML (kubectl's habit), so the same
 * schema describes it once parsed. Every string is double-quoted, which keeps a value such as "yes",
 * "1e3" or "null" a string and lets SnakeYAML escape control characters (C0, DEL and C1, as the JSON
 * form does); long strings stay on one line for grep.
 */
public final class YamlReport {
  private final YAMLFactory factory = YAMLFactory.builder()
      .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
      .disable(YAMLGenerator.Feature.SPLIT_LINES)
      .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT) // a failed document stays cut
      .build();

  /** A document of records (see {@link RecordJson}). */
  public void write(Object document, OutputStream out) throws IOException {
    try (JsonGenerator g = factory.createGenerator(JsonReport.nonClosing(out))) {
      new RecordJson().write(document, g);
    }
    out.flush();
  }
}
