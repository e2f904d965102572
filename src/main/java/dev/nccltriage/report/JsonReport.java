package dev.nccltriage.report;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One JSON document per run, on stdout: a {@link Report}, a {@link LintReport} or the version's.
 * Fields only from record components, never from methods.
 */
public final class JsonReport {
  private final ObjectMapper mapper = new ObjectMapper()
      .setVisibility(PropertyAccessor.GETTER, JsonAutoDetect.Visibility.NONE)
      .setVisibility(PropertyAccessor.IS_GETTER, JsonAutoDetect.Visibility.NONE)
      .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
      .enable(SerializationFeature.INDENT_OUTPUT);

  {
    mapper.getFactory().setCharacterEscapes(new ControlEscapes());
  }

  /**
   * Jackson escapes C0 controls; DEL and the C1 controls (U+0080 to U+009F, which some terminals
   * read as CSI and friends) are escaped too, so that {@code cat report.json} is as safe as text.
   */
  private static final class ControlEscapes extends CharacterEscapes {
    private static final long serialVersionUID = 1L;
    private final int[] ascii = CharacterEscapes.standardAsciiEscapesForJSON();

    ControlEscapes() {
      ascii[0x7f] = CharacterEscapes.ESCAPE_STANDARD;
    }

    @Override
    public int[] getEscapeCodesForAscii() {
      return ascii;
    }

    @Override
    public SerializableString getEscapeSequence(int ch) {
      return ch >= 0x80 && ch <= 0x9f ? new SerializedString(String.format("\\u%04x", ch)) : null;
    }
  }
  // Built here, not at the first write: the serializers of Report and of every record under it are
  // found (reflection) when the writer is made, which the command does in the background.
  private final ObjectWriter writer = mapper.writerFor(Report.class);

  public void write(Object document, OutputStream out) throws IOException {
    (document instanceof Report ? writer : mapper.writer()).writeValue(new NonClosing(out), document);
    out.write('\n');
    out.flush();
  }

  /** One line: the initContainer's log shows it whole. */
  public void writeCompact(Object document, OutputStream out) throws IOException {
    mapper.copy().disable(SerializationFeature.INDENT_OUTPUT).writeValue(new NonClosing(out), document);
    out.write('\n');
    out.flush();
  }

  public String toString(Object document) throws IOException {
    return mapper.writeValueAsString(document) + "\n";
  }

  /** Jackson closes the stream it writes to; stdout must stay open. */
  static OutputStream nonClosing(OutputStream out) {
    return new NonClosing(out);
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
