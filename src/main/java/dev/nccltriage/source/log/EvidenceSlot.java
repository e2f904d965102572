package dev.nccltriage.source.log;

import dev.nccltriage.evidence.Evidence;
import dev.nccltriage.evidence.EvidenceList;

/**
 * Lazily materialises the current line as evidence: text is decoded only if it will be kept. Of a
 * line that holds records glued together, the evidence is the current record's own text, from its
 * prefix to where the next one's starts: the line's whole text would show the first record's
 * words (another process's, another family's) for what a later record said. Where that start is
 * not sure (a record of another host after it: {@link GluedSeam}), a record's text runs to the
 * line's end.
 */
final class EvidenceSlot {
  String source;
  byte[] buf;
  int start;
  int end;
  long lineNo;
  /**
   * Where a record glued after the current NCCL record is looked for (its message's start, or where
   * the channel parser stopped reading it, as {@link LogParser} looks); -1 when the line is no record.
   */
  int msg = -1;
  private int recordFrom; // the current record's prefix: [recordFrom, lvl), lvl its level token
  private int lvl;
  private final Prefix glued = new Prefix();
  private final Prefix own = new Prefix();

  /** Makes b[start, end), line {@code lineNo} of the source, the current line. */
  void at(byte[] b, int start, int end, long lineNo) {
    this.buf = b;
    this.start = start;
    this.end = end;
    this.lineNo = lineNo;
    this.msg = -1;
  }

  /**
   * The current line holds an NCCL record: its prefix from {@code k}, its level token at {@code
   * lvl}, its message at {@code msg}.
   */
  void atRecord(int k, int lvl, int msg) {
    this.recordFrom = k;
    this.lvl = lvl;
    this.msg = msg;
  }

  void record(EvidenceList list) {
    if (list.count() < EvidenceList.KEEP) {
      list.add(current());
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
    return new Evidence(source, lineNo, Bytes.text(buf, start, textEnd()).strip());
  }

  /**
   * The end of the current record: where a record glued after it starts (found as the parser finds
   * it, from the message's level token on), else the line's end. Searched only for evidence kept.
   */
  private int textEnd() {
    if (msg < start || msg >= end) {
      return end;
    }
    int next = LevelTokens.nextLevel(buf, msg, end, lvl, glued);
    if (next < 0) {
      return end;
    }
    glued.parse(buf, msg, next);
    int at = Math.max(msg, GluedSeam.start(buf, recordFrom, lvl, end, glued, own));
    // only a glued record of the same host shows where it starts (GluedSeam): another host's name
    // may have taken the last word of this record's message, so this record keeps the line's bytes
    return GluedSeam.sameHost(buf, at, glued, own) ? at : end;
  }
}
