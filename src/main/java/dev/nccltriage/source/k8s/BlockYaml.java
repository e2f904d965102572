package dev.nccltriage.source.k8s;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayDeque;
import java.util.ArrayList;
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

  private static final class Decline extends Exception {
    private static final long serialVersionUID = 1L;

    Decline() {
      super(null, null, false, false);
    }
  }

  /** SnakeYAML refuses a simple key longer than 1024 characters. */
  private static final int MAX_KEY = 1000;

  private final Reader in;
  private final long maxChars;
  private final ScalarTypes types;
  private final char[] buf = new char[1 << 16];
  private int pos;
  private int limit;
  private boolean eof;
  private final StringBuilder partial = new StringBuilder();
  private boolean lastHadNewline = true;

  // the lines from the resume point on; evidence of the object being handed on is among them
  private final List<String> held = new ArrayList<>();
  private int heldFirst = 1;
  private long heldChars;

  private Context context = Context.DOCUMENT;
  private Map<String, Node> listKeys = Map.of();
  private int docLine;

  private final ArrayDeque<Frame> stack = new ArrayDeque<>();
  private Frame doc;
  private Frame items;

  private static final class Frame {
    final boolean seq;
    final int col;
    final int line;
    final int keyLine;
    final Map<String, Node> map;
    final List<Node> list;
    /** A key read, its value on the lines below (or empty). */
    String key;
    int keyAt;
    /** A "-" read, its value on the lines below (or empty). */
    int itemAt = -1;
    /** A sequence that sits at its key's column. */
    boolean indentless;
    /** The document's top-level items: list: each entry is handed on, not kept. */
    boolean items;
    /** An item of items: that is a scalar: it may go on on the next line, so it is handed on after that. */
    Node deferred;

    Frame(boolean seq, int col, int line, int keyLine) {
      this.seq = seq;
      this.col = col;
      this.line = line;
      this.keyLine = keyLine;
      this.map = seq ? null : new LinkedHashMap<>();
      this.list = seq ? new ArrayList<>() : null;
    }

    Node node() {
      return new Node(seq ? list : map, line, keyLine);
    }
  }

  BlockYaml(Reader in, long maxChars, ScalarTypes types) {
    this.in = in;
    this.maxChars = maxChars;
    this.types = types;
  }

  /** Line {@code n}'s text while its object is handed on; "" when it is not held. */
  String line(int n) {
    int i = n - heldFirst;
    return i >= 0 && i < held.size() ? held.get(i) : "";
  }

  /** Reads to the end, or to the first line it declines; then returns where the full parser goes on. */
  Resume read(Sink sink) throws IOException {
    int n = 0;
    while (true) {
      String line = nextLine();
      if (line == null) {
        if (partial.length() > 0) {
          return resume(); // a line longer than any object: the full parser says so
        }
        closeAll(sink, n + 1);
        return null;
      }
      n++;
      held.add(line);
      heldChars += line.length() + 1;
      try {
        if (heldChars > maxChars) {
          throw new Decline();
        }
        line(sink, line, n);
      } catch (Decline d) {
        return resume();
      }
    }
  }

  private Resume resume() {
    StringBuilder text = new StringBuilder(context == Context.ITEMS ? "items:\n" : "");
    for (int i = 0; i < held.size(); i++) {
      text.append(held.get(i));
      if (i < held.size() - 1 || lastHadNewline) {
        text.append('\n');
      }
    }
    text.append(partial);
    Reader rest = new ReplayReader(text.toString(), buf, pos, limit, eof ? null : in);
    return new Resume(context, heldFirst, rest, listKeys, docLine);
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
    Parsed p = parse(line.substring(ind), ind);
    if (stack.isEmpty()) {
      if (ind != 0 || p.dash) {
        throw new Decline();
      }
      doc = new Frame(false, 0, n, n);
      docLine = n;
      stack.push(doc);
      key(doc, p, n);
      return;
    }
    if (!fits(ind, p.dash)) {
      throw new Decline();
    }
    if (items != null && items.deferred != null) {
      handOn(sink, items, n);
    }
    while (stack.peek().col > ind) {
      close(sink, n);
    }
    Frame f = stack.peek();
    if (f.key != null && (ind > f.col || p.dash)) {
      // the value of the key above: a list (at the key's column or deeper) or a map (deeper)
      Frame c = new Frame(p.dash, ind, n, f.keyAt);
      c.indentless = p.dash && ind == f.col;
      c.items = p.dash && f == doc && f.key.equals("items");
      stack.push(c);
      if (c.items) {
        items = c;
        context = Context.ITEMS;
        listKeys = new LinkedHashMap<>(doc.map);
        dropHeldBefore(n);
      }
      if (p.dash) {
        item(sink, c, p, n);
      } else {
        key(c, p, n);
      }
      return;
    }
    if (f.itemAt >= 0 && ind > f.col) {
      Frame c = new Frame(false, ind, n, n);
      stack.push(c);
      key(c, p, n);
      return;
    }
    settle(sink, f);
    if (f.seq && !p.dash) {
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

  /**
   * One line: a "-" (its content at column {@code col}), and a key with or without a value on the line,
   * or a value alone (after a "-"), or nothing (after a "-").
   */
  private record Parsed(boolean dash, int col, String key, boolean hasValue, Object value) {}

  private Parsed parse(String t, int ind) throws Decline {
    boolean dash = t.equals("-") || t.startsWith("- ");
    if (!dash) {
      return keyLine(t, false, ind);
    }
    int at = 1;
    while (at < t.length() && t.charAt(at) == ' ') {
      at++;
    }
    if (at == t.length()) {
      return new Parsed(true, ind + at, null, false, null);
    }
    String rest = t.substring(at);
    char c0 = rest.charAt(0);
    if (c0 != '"' && c0 != '\'' && (rest.contains(": ") || rest.endsWith(":"))) {
      return keyLine(rest, true, ind + at);
    }
    return new Parsed(true, ind + at, null, true, scalar(rest));
  }

  private Parsed keyLine(String t, boolean dash, int col) throws Decline {
    int c = t.indexOf(": ");
    if (c < 0 && t.endsWith(":")) {
      c = t.length() - 1;
    }
    if (c <= 0 || c > MAX_KEY || ScalarTypes.INDICATORS.indexOf(t.charAt(0)) >= 0 || t.charAt(c - 1) == ' ') {
      throw new Decline();
    }
    String key = t.substring(0, c);
    int v = c + 1;
    while (v < t.length() && t.charAt(v) == ' ') {
      v++;
    }
    return v == t.length() ? new Parsed(dash, col, key, false, null)
        : new Parsed(dash, col, key, true, scalar(t.substring(v)));
  }

  /** Whether a line at column {@code ind} has a place in the open collections. */
  private boolean fits(int ind, boolean dash) {
    Frame below = null;
    for (Frame f : stack) { // from the innermost
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
  private void settle(Sink sink, Frame f) {
    if (f.key != null) {
      put(sink, f, new Node("", f.keyAt, f.keyAt));
    } else if (f.itemAt >= 0) {
      put(sink, f, new Node("", f.itemAt, f.itemAt));
    }
  }

  private void put(Sink sink, Frame f, Node value) {
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

  private void handOn(Sink sink, Frame f, int n) {
    sink.object(f.deferred, this);
    f.deferred = null;
    dropHeldBefore(n);
  }

  private void close(Sink sink, int n) {
    Frame f = stack.pop();
    if (f.deferred != null) {
      handOn(sink, f, n);
    }
    settle(sink, f);
    if (stack.isEmpty()) {
      sink.object(f.node(), this);
      doc = null;
      dropHeldBefore(n);
      context = Context.DOCUMENT;
      return;
    }
    if (f.items) {
      items = null;
      dropHeldBefore(n);
      context = Context.AFTER_ITEMS;
      listKeys = new LinkedHashMap<>(doc.map);
    }
    put(sink, stack.peek(), f.node());
    if (stack.peek().items) {
      dropHeldBefore(n); // an item was handed on: the full parser would start at the next one
    }
  }

  private void closeAll(Sink sink, int n) {
    while (!stack.isEmpty()) {
      close(sink, n);
    }
  }

  private void dropHeldBefore(int n) {
    int k = Math.min(Math.max(0, n - heldFirst), held.size());
    for (int i = 0; i < k; i++) {
      heldChars -= held.get(i).length() + 1;
    }
    held.subList(0, k).clear();
    heldFirst += k;
  }

  private void item(Sink sink, Frame f, Parsed p, int n) {
    if (p.key != null) {
      Frame m = new Frame(false, p.col, n, n);
      stack.push(m);
      key(m, p, n);
      return;
    }
    if (!p.hasValue) {
      f.itemAt = n;
      return;
    }
    if (f.items) {
      f.deferred = new Node(p.value, n, n);
      return;
    }
    f.itemAt = n;
    put(sink, f, new Node(p.value, n, n));
  }

  private void key(Frame f, Parsed p, int n) {
    f.key = p.key;
    f.keyAt = n;
    if (!p.hasValue) {
      return;
    }
    if (f == doc && p.key.equals("items") && p.value instanceof List) {
      f.key = null; // an empty list of objects: none to hand on
      return;
    }
    f.map.put(p.key, new Node(p.value, n, n));
    f.key = null;
  }

  private Object scalar(String s) throws Decline {
    Object v = types.value(s);
    if (v == ScalarTypes.UNSURE) {
      throw new Decline();
    }
    return v;
  }

  /** The next line without its LF (and a CR before it), or null at the end or past {@code maxChars}. */
  private String nextLine() throws IOException {
    partial.setLength(0);
    while (true) {
      if (pos == limit) {
        if (eof) {
          if (partial.length() == 0) {
            return null;
          }
          lastHadNewline = false;
          String s = partial.toString();
          partial.setLength(0);
          return s;
        }
        int r = in.read(buf, 0, buf.length);
        if (r < 0) {
          eof = true;
          continue;
        }
        pos = 0;
        limit = r;
      }
      int start = pos;
      while (pos < limit && buf[pos] != '\n') {
        pos++;
      }
      if (pos < limit) {
        String s;
        if (partial.length() == 0) {
          s = new String(buf, start, pos - start);
        } else {
          partial.append(buf, start, pos - start);
          s = partial.toString();
          partial.setLength(0);
        }
        pos++;
        return s; // a CR stays: the line is then declined, and the full parser reads it
      }
      partial.append(buf, start, pos - start);
      if (partial.length() > maxChars) {
        return null; // resume() hands the partial line on
      }
    }
  }
}
