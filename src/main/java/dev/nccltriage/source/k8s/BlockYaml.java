package dev.nccltriage.source.k8s;

import dev.nccltriage.source.k8s.BlockLineSplitter.Parsed;
import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A fast reader for the plain block YAML that {@code kubectl get -o yaml} and most hand-written manifests
 * are made of: one key or list item per line, printable ASCII, plain or one-line quoted scalars without
 * escapes, {@code {}} and {@code []}. It builds the same {@link Node}s, with the same lines, as
 * SnakeYAML through Jackson (which reads about 2 MB/s here, 5 with nothing else to do), and declines at
 * the first line outside that subset: anchors, tags, block scalars, flow collections, multi-line
 * scalars, comments after a value, tabs, non-ASCII, anything invalid. Then {@link #resume} tells
 * where the full parser must take over: the start of the document, of the {@code items:} entry or of
 * the key after the list, whichever was read last and not yet handed on. Nothing read before that point
 * is read again, so nothing is handed on twice.
 */
final class BlockYaml {
  /** Where the full parser takes over after a decline. */
  enum Context { DOCUMENT, ITEMS, AFTER_ITEMS }

  /** What the full parser needs: the text from {@code line} on, and the list document's keys so far. */
  record Resume(Context context, int line, Reader rest, Map<String, Node> keys, int docLine) {}

  /** Receives each object (a document, or an item of a top-level {@code items:} list) as it closes. */
  interface Sink {
    void object(Node object, BlockYaml lines);
  }

  /** The line is outside the subset read here: the full parser takes over. */
  static final class Decline extends Exception {
    private static final long serialVersionUID = 1L;

    Decline() {
      super(null, null, false, false);
    }
  }

  private final YamlLineInput input;
  private final long maxChars;
  private final BlockLineSplitter splitter;
  private final HeldLines held = new HeldLines();

  private Context context = Context.DOCUMENT;
  private Map<String, Node> listKeys = Map.of();
  private int docLine;

  private final ArrayDeque<BlockFrame> stack = new ArrayDeque<>();
  private BlockFrame doc;
  private BlockFrame items;

  BlockYaml(Reader in, long maxChars, ScalarTypes types) {
    this.input = new YamlLineInput(in, maxChars);
    this.maxChars = maxChars;
    this.splitter = new BlockLineSplitter(types);
  }

  /** Line {@code n}'s text while its object is handed on; "" when it is not held. */
  String line(int n) {
    return held.line(n);
  }

  /** Reads to the end, or to the first line it declines; then returns where the full parser goes on. */
  Resume read(Sink sink) throws IOException {
    int n = 0;
    while (true) {
      String line = input.next();
      if (line == null) {
        if (input.inLongLine()) {
          return resume(); // a line longer than any object: the full parser says so
        }
        closeAll(sink, n + 1);
        return null;
      }
      n++;
      held.add(line);
      try {
        if (held.chars() > maxChars) {
          throw new Decline();
        }
        line(sink, line, n);
      } catch (Decline d) {
        return resume();
      }
    }
  }

  private Resume resume() {
    StringBuilder text = held.text(context == Context.ITEMS ? "items:\n" : "", input.lastHadNewline());
    Reader rest = input.rest(text);
    return new Resume(context, held.first(), rest, listKeys, docLine);
  }

  private void line(Sink sink, String line, int n) throws Decline {
    int ind = 0;
    while (ind < line.length() && line.charAt(ind) == ' ') {
      ind++;
    }
    for (int i = ind; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c < 0x20 || c > 0x7e) {
        throw new Decline();
      }
    }
    if (ind == line.length() || line.charAt(ind) == '#') {
      return; // blank or a comment
    }
    if (ind == 0 && (line.startsWith("---") || line.startsWith("..."))) {
      if (!line.startsWith("---") || !line.substring(3).isBlank()) {
        throw new Decline();
      }
      closeAll(sink, n);
      context = Context.DOCUMENT;
      return;
    }
    if (ind == 0 && line.charAt(0) == '%') {
      throw new Decline();
    }
    if (line.indexOf('#') >= 0) {
      throw new Decline(); // a comment after a value, or a '#' the full parser must judge
    }
    // the whole line is read, and its place checked, before anything is closed and handed on: SnakeYAML
    // reads a line ahead, so an error in it comes before the object that the line ends
    Parsed p = splitter.parse(line.substring(ind), ind);
    if (stack.isEmpty()) {
      if (ind != 0 || p.dash()) {
        throw new Decline();
      }
      doc = new BlockFrame(false, 0, n, n);
      docLine = n;
      stack.push(doc);
      key(doc, p, n);
      return;
    }
    if (!fits(ind, p.dash())) {
      throw new Decline();
    }
    if (items != null && items.deferred != null) {
      handOn(sink, items, n);
    }
    while (stack.peek().col > ind) {
      close(sink, n);
    }
    BlockFrame f = stack.peek();
    if (f.key != null && (ind > f.col || p.dash())) {
      // the value of the key above: a list (at the key's column or deeper) or a map (deeper)
      BlockFrame c = new BlockFrame(p.dash(), ind, n, f.keyAt);
      c.indentless = p.dash() && ind == f.col;
      c.items = p.dash() && f == doc && f.key.equals("items");
      stack.push(c);
      if (c.items) {
        items = c;
        context = Context.ITEMS;
        listKeys = new LinkedHashMap<>(doc.map);
        held.dropBefore(n);
      }
      if (p.dash()) {
        item(sink, c, p, n);
      } else {
        key(c, p, n);
      }
      return;
    }
    if (f.itemAt >= 0 && ind > f.col) {
      BlockFrame c = new BlockFrame(false, ind, n, n);
      stack.push(c);
      key(c, p, n);
      return;
    }
    settle(sink, f);
    if (f.seq && !p.dash()) {
      close(sink, n); // an indentless list ends; its map goes on
      f = stack.peek();
      settle(sink, f);
    }
    if (f.seq) {
      item(sink, f, p, n);
    } else {
      key(f, p, n);
    }
  }

  /** Whether a line at column {@code ind} has a place in the open collections. */
  private boolean fits(int ind, boolean dash) {
    BlockFrame below = null;
    for (BlockFrame f : stack) { // from the innermost
      if (f.col > ind) {
        below = f;
        continue;
      }
      // a key or "-" whose value is the collection closed above it has that value
      if (below == null && f.key != null && (ind > f.col || dash)) {
        return true;
      }
      if (below == null && f.itemAt >= 0 && ind > f.col) {
        return !dash;
      }
      if (f.col != ind) {
        return false;
      }
      if (f.seq && !dash) {
        return f.indentless; // the list ends; its map goes on with a key
      }
      return f.seq == dash;
    }
    return false;
  }

  /** A key or "-" left without a value on its line and none below: an empty scalar, read as "". */
  private void settle(Sink sink, BlockFrame f) {
    if (f.key != null) {
      put(sink, f, new Node("", f.keyAt, f.keyAt));
    } else if (f.itemAt >= 0) {
      put(sink, f, new Node("", f.itemAt, f.itemAt));
    }
  }

  private void put(Sink sink, BlockFrame f, Node value) {
    if (f.seq) {
      f.itemAt = -1;
      if (f.items) {
        sink.object(value, this);
      } else {
        f.list.add(value);
      }
    } else {
      if (!(f == doc && f.key.equals("items") && value.value() instanceof List)) {
        f.map.put(f.key, value);
      }
      f.key = null;
    }
  }

  private void handOn(Sink sink, BlockFrame f, int n) {
    sink.object(f.deferred, this);
    f.deferred = null;
    held.dropBefore(n);
  }

  private void close(Sink sink, int n) {
    BlockFrame f = stack.pop();
    if (f.deferred != null) {
      handOn(sink, f, n);
    }
    settle(sink, f);
    if (stack.isEmpty()) {
      sink.object(f.node(), this);
      doc = null;
      held.dropBefore(n);
      context = Context.DOCUMENT;
      return;
    }
    if (f.items) {
      items = null;
      held.dropBefore(n);
      context = Context.AFTER_ITEMS;
      listKeys = new LinkedHashMap<>(doc.map);
    }
    put(sink, stack.peek(), f.node());
    if (stack.peek().items) {
      held.dropBefore(n); // an item was handed on: the full parser would start at the next one
    }
  }

  private void closeAll(Sink sink, int n) {
    while (!stack.isEmpty()) {
      close(sink, n);
    }
  }

  private void item(Sink sink, BlockFrame f, Parsed p, int n) {
    if (p.key() != null) {
      BlockFrame m = new BlockFrame(false, p.col(), n, n);
      stack.push(m);
      key(m, p, n);
      return;
    }
    if (!p.hasValue()) {
      f.itemAt = n;
      return;
    }
    if (f.items) {
      f.deferred = new Node(p.value(), n, n);
      return;
    }
    f.itemAt = n;
    put(sink, f, new Node(p.value(), n, n));
  }

  private void key(BlockFrame f, Parsed p, int n) {
    f.key = p.key();
    f.keyAt = n;
    if (!p.hasValue()) {
      return;
    }
    if (f == doc && p.key().equals("items") && p.value() instanceof List) {
      f.key = null; // an empty list of objects: none to hand on
      return;
    }
    f.map.put(p.key(), new Node(p.value(), n, n));
    f.key = null;
  }
}
