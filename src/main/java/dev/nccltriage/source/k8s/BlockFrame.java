package dev.nccltriage.source.k8s;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A collection {@link BlockYaml} has open: a map or a list, at its column, with what is pending in it. */
final class BlockFrame {
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

  BlockFrame(boolean seq, int col, int line, int keyLine) {
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
