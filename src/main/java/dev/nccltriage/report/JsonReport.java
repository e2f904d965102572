package dev.nccltriage.report;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;

/** One JSON document per run, on stdout. Fields only from record components, never from methods. */
public final class JsonReport {
  private final ObjectMapper mapper = new ObjectMapper()
      .setVisibility(PropertyAccessor.GETTER, JsonAutoDetect.Visibility.NONE)
      .setVisibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE)
      .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
      .enable(SerializationFeature.INDENT_OUTPUT);
  // Built here, not at the first write: the serializers of Report and of every record under it are
  // found (reflection) when the writer is made, which the command does in the background.
  private final ObjectWriter writer = mapper.writerFor(Report.class);

  public void write(Report report, OutputStream out) throws IOException {
    writer.writeValue(new NonClosing(out), report);
    out.write('\n');
    out.flush();
  }

  /** One line: the initContainer's log shows it whole. */
  public void writeCompact(Report report, OutputStream out) throws IOException {
    mapper.copy().disable(SerializationFeature.INDENT_OUTPUT).writeValue(new NonClosing(out), report);
    out.write('\n');
    out.flush();
  }

  public String toString(Report report) throws IOException {
    return mapper.writeValueAsString(report) + "\n";
  }

  /** Jackson closes the stream it writes to; stdout must stay open. */
  private static final class NonClosing extends java.io.FilterOutputStream {
    NonClosing(OutputStream out) {
      super(out);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      out.write(b, off, len);
    }

    @Override
    public void close() throws IOException {
      flush();
    }
  }
}
