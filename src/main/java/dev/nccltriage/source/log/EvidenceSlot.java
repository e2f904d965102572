package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;

/** Lazily materialises the current line as evidence: text is decoded only if it will be kept. */
final class EvidenceSlot {
  String source;
  byte[] buf;
  int start;
  int end;
  long lineNo;

  /** Makes b[start, end), line {@code lineNo} of the source, the current line. */
  void at(byte[] b, int start, int end, long lineNo) {
    this.buf = b;
    this.start = start;
    this.end = end;
    this.lineNo = lineNo;
  }

  void record(EvidenceList list) {
    if (list.count() < EvidenceList.KEEP) {
      list.add(new Evidence(source, lineNo, Bytes.text(buf, start, end).strip()));
    } else {
      list.add(null);
    }
  }

  /**
   * Stands for the current line in a host entry of one line's parse (no budget): most such lines
   * settle into a state that keeps nothing more, so the text is decoded only when one does.
   */
  static final Evidence CURRENT_LINE = new Evidence("", 0, "");

  /**
   * Keeps the line as evidence of p's host, if the host is to keep this kind and value. Once the
   * host holds all it keeps of a kind (final: it never drops lines), p notes it, and its further
   * lines of that kind cost one test of its own field, not a walk to the host's.
   */
  void record(ProcessState p, int kind, Object value) {
    // most lines: one test here, in a method small enough for C1 to inline into every caller
    if ((p.evidenceFull & 1 << kind) == 0) {
      offer(p, kind, value);
    }
  }

  private void offer(ProcessState p, int kind, Object value) {
    int bit = 1 << kind;
    HostEvidence host = p.evidence;
    if (host.wants(kind, value)) {
      host.add(kind, value, host.oneLine() ? CURRENT_LINE : current());
    } else if (host.full(kind)) {
      p.evidenceFull |= bit;
    }
  }

  /** The current line as evidence. */
  Evidence current() {
    return new Evidence(source, lineNo, Bytes.text(buf, start, end).strip());
  }
}
