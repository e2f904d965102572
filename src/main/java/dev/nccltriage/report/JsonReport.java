package dev.nccltriage.report;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.TreeNode;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;

/**
 * One JSON document per run, on stdout: a {@link Report}, a {@link LintReport} or the version's
 * (fields from record components, in order; see {@link RecordJson}), or a tree (SARIF).
 */
public final class JsonReport {
  // a document that fails half-way stays visibly cut (databind did not close its brackets either)
  private final JsonFactory factory = new JsonFactoryBuilder().characterEscapes(new ControlEscapes())
      .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT).build();
  private final RecordJson records = new RecordJson();

  /**
   * Jackson escapes C0 controls; DEL and the C1 controls (U+0080 to U+009F, which some terminals
   * read as CSI and friends) are escaped too, so that {@code cat report.json} is as safe as text.
   */
  static final class ControlEscapes extends CharacterEscapes {
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

  /** Indented as databind's INDENT_OUTPUT indents (its default pretty printer). */
  public void write(Object document, OutputStream out) throws IOException {
    write(document, out, true);
  }

  /** One line: the initContainer's log shows it whole. */
  public void writeCompact(Object document, OutputStream out) throws IOException {
    write(document, out, false);
  }

  private void write(Object document, OutputStream out, boolean indent) throws IOException {
    try (JsonGenerator g = factory.createGenerator(new NonClosing(out), JsonEncoding.UTF8)) {
      if (indent) {
        g.setPrettyPrinter(new DefaultPrettyPrinter());
      }
      if (document instanceof TreeNode tree) {
        Trees.write(factory, g, tree);
      } else {
        records.write(document, g);
      }
    }
    out.write('\n');
    out.flush();
  }

  /**
   * A tree (SARIF) is written by databind (~100 ms to make a mapper), in a class of its own: code
   * that passed an ObjectMapper where its supertype is expected made the verifier load it, and the
   * start-up archive's dump then verified and kept 250 of databind's classes (+3.7 MB).
   */
  private static final class Trees {
    static void write(JsonFactory factory, JsonGenerator g, TreeNode tree) throws IOException {
      g.setCodec(new ObjectMapper(factory));
      g.writeTree(tree);
    }
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
