package dev.nccltriage.source.log;

import static dev.nccltriage.source.log.Bytes.ascii;
import static dev.nccltriage.source.log.Bytes.indexOf;
import static dev.nccltriage.source.log.Bytes.startsWith;
import static dev.nccltriage.source.log.LevelTokens.BRACKET_SPACE;
import static dev.nccltriage.source.log.LevelTokens.INFO;
import static dev.nccltriage.source.log.LevelTokens.LEVEL_WORD;
import static dev.nccltriage.source.log.LevelTokens.NCCL;
import static dev.nccltriage.source.log.LevelTokens.WARN;
import static dev.nccltriage.source.log.LevelTokens.isLevel;
import static dev.nccltriage.source.log.LevelTokens.isWarn;
import static dev.nccltriage.source.log.LevelTokens.nextLevel;
import static dev.nccltriage.source.log.LevelTokens.oldLevelAt;

/**
 * One pass over log lines: finds the NCCL envelope anywhere in a line (launcher, kubectl and
 * timestamp prefixes are simply what comes before it), works out which process printed it, and
 * hands the message to {@link MessageParser}. Lines it cannot place are counted, never fatal.
 */
final class LogParser implements LineSink {
  private static final byte[] TRACE = ascii("TRACE");
  private static final byte[] CALL = ascii("CALL");
  private static final byte[] VERSION = ascii("version ");
  private static final byte[] FRAMEWORK_VERSION = ascii("version:");
  private static final byte[] FAILURE = ascii("failure");
  private static final byte[] ERROR = ascii("error");

  private final LogAccumulator acc;
  private final MessageParser messages;
  private final EvidenceSlot slot = new EvidenceSlot();
  private final Prefix prefix = new Prefix();
  private final Prefix gluedPrefix = new Prefix();
  private final Prefix ownPrefix = new Prefix(); // a record's own, read again when one is glued after it
  private final AnsiStrip ansi = new AnsiStrip();
  private final Tracebacks tracebacks;
  private final JsonLogLine json = new JsonLogLine();
  // a record in a record's text (a shipper that wrapped a runtime's JSON log line again): the two
  // decode each other's buffer in turn
  private final JsonLogLine innerJson = new JsonLogLine();
  private static final int MAX_NESTED_RECORDS = 8;
  private final QuotedField quoted = new QuotedField();
  private final PrefixCache prefixes;
  private final UnknownWrappers wrappers;
  private int lastSlot = -1; // the cache slot of the last line, checked first
  // what lineAt found for the line starting at hintStart in hintBuf (null: nothing)
  private byte[] hintBuf;
  private int hintStart;
  private int hintSlot;
  private int hintKey; // where the line starts after its wrappers (a leading timestamp)
  private int hintFoundAt; // where the cached prefix starts: there, or past a wrapper nobody knows
  private byte[] lastPrefix = new byte[128];
  private int lastPrefixLength = -1;
  private ProcessState lastProcess;
  private int gluedAt = -1; // where the next record glued into the current line starts
  private int gluedLevel; // and where its level token is
  private final Admission admission;
  private final WrappedReports reports;
  private boolean parsedWrapped; // the last prefix parsed had bytes no table knows before its host
  private boolean lastProcessWrapped; // parsedWrapped of lastProcess's prefix
  private int lastProcessNoted = -1; // the wrapper UnknownWrappers noted on lastProcess's prefix; -1: none
  private boolean hitWrapped; // parsedWrapped of the line segment() found in the cache

  LogParser(LogAccumulator acc, String source) {
    this(acc, source, new PrefixCache());
  }

  /** A parser that uses (and first clears) a cache another parser used before. */
  LogParser(LogAccumulator acc, String source, PrefixCache prefixes) {
    prefixes.clear();
    this.prefixes = prefixes;
    this.wrappers = new UnknownWrappers(prefixes, acc.wrapperShapes);
    this.acc = acc;
    this.tracebacks = acc.tracebacks;
    this.reports = acc.wrappedReports;
    this.slot.source = source;
    this.messages = new MessageParser(acc, slot);
    this.admission = new Admission(acc, slot);
    acc.processes.onEvict(this::forgetProcesses);
  }

  /** The table evicted hosts: the states cached here may be gone. */
  private void forgetProcesses() {
    prefixes.clear();
    lastSlot = -1;
    hintBuf = null;
    lastProcess = null;
    lastPrefixLength = -1;
  }

  @Override
  public void line(byte[] b, int s, int e, long lineNo, boolean truncated, boolean mayHaveEscape) {
    acc.lines++;
    if (truncated) {
      acc.truncated++;
    }
    if (e > s && b[e - 1] == '\r') {
      e--;
    }
    if (e == s) {
      // a blank line: what the search below would conclude, without it
      acc.unplaced++;
      hintBuf = null;
      return;
    }
    // a JSON record, or one of its text fields alone on a line (a pretty-printed document); a CSV
    // export's column or a logfmt value, quoted
    int decoded = -1;
    LineDecoder wrapped = b[s] == '{' ? json
        : (b[s] == ' ' || b[s] == '"') && (decoded = json.field(b, s, e)) >= 0 ? json
        : e - s > 8 && (b[e - 1] == '"' || quoteGate && mayBeQuoted(b, s, e)) ? quoted : null;
    quoteGate = false;
    if (wrapped != null) {
      decoded = decoded >= 0 ? decoded : wrapped.decode(b, s, e); // (a field alone on its line is decoded already)
      if (decoded >= 0) {
        b = wrapped.buffer();
        s = 0;
        e = decoded;
        mayHaveEscape |= wrapped.decodedEscape();
        JsonLogLine outer = json;
        JsonLogLine inner = innerJson;
        for (int depth = 0; wrapped == json && depth < MAX_NESTED_RECORDS && e - s >= 8 && b[s] == '{'; depth++) {
          int m = inner.decode(b, s, e);
          if (m < 0) {
            break;
          }
          b = inner.buffer();
          s = 0;
          e = m;
          mayHaveEscape |= inner.decodedEscape();
          JsonLogLine t = outer;
          outer = inner;
          inner = t;
        }
        LineDecoder last = wrapped == json ? outer : wrapped; // the one whose buffer b is
        if (wrapped == json && e - s > 8 && (b[e - 1] == '"' || QuotedField.mayBeRow(b, s, e))) {
          // a record's text that is itself a line of quoted fields (logfmt in a JSON log)
          int m = quoted.decode(b, s, e);
          if (m >= 0) {
            b = quoted.buffer();
            s = 0;
            e = m;
            last = quoted;
          }
        }
        if (last.decodedNewline()) {
          lines(b, s, e, lineNo, mayHaveEscape);
          return;
        }
      }
    }
    text(b, s, e, lineNo, mayHaveEscape);
  }

  /**
   * A record's text that holds several lines (a shipper's multi-line event: a traceback, a
   * PyTorch exception with its "Last error:" line) read as those lines, each cited by the record's
   * line number and counted as a line read.
   */
  private void lines(byte[] b, int s, int e, long lineNo, boolean mayHaveEscape) {
    int from = s;
    while (true) {
      int nl = Bytes.indexOfByte(b, from, e, (byte) '\n');
      int end = nl < 0 ? e : nl;
      int to = end > from && b[end - 1] == '\r' ? end - 1 : end;
      if (to > from) {
        text(b, from, to, lineNo, mayHaveEscape);
      } else {
        acc.unplaced++; // a blank line
      }
      if (nl < 0) {
        return;
      }
      acc.lines++;
      from = nl + 1;
    }
  }

  /** The text of a line, unwrapped: read for NCCL's records, or else for another program's failure. */
  private void text(byte[] b, int s, int e, long lineNo, boolean mayHaveEscape) {
    if (mayHaveEscape && AnsiStrip.hasEscape(b, s, e)) {
      int n = ansi.strip(b, s, e);
      b = ansi.buffer();
      s = 0;
      e = n;
    }
    if (e > s && (Envelope.mayHaveSuffix(b[e - 1]) || Envelope.mayEndInColumn(b, s, e))) {
      e = Envelope.trimSuffix(b, s, e);
    }
    slot.at(b, s, e, lineNo);
    scan.forget();
    textOf = null;
    lineFailed = false;
    boolean placed = segment(b, s, e, false);
    if (quotedRecord) {
      // the record is a quoted field with more fields after it, on a line the test above could
      // not tell (its thread's first): read again, unquoted (segment took nothing from it)
      quotedRecord = false;
      int n = quoted.decode(b, s, e);
      if (n >= 0) {
        b = quoted.buffer();
        s = 0;
        e = n;
        slot.at(b, s, e, lineNo);
      }
      readRaw = n < 0; // not such a field after all: as it is
      placed = segment(b, s, e, false);
      readRaw = false;
    }
    // records glued into one line are taken in a loop, not by recursion: a hostile line of
    // thousands of glued envelopes must not exhaust the stack
    while (gluedAt >= 0) {
      int at = gluedAt;
      int level = gluedLevel;
      gluedAt = -1;
      slot.at(b, at, e, lineNo); // its evidence is its own text
      if (b[level] == 'N') {
        segment(b, at, e, true);
      } else {
        // before 2.3 (nextLevel found its "] INFO" after a host's prefix): segment would first
        // search the rest of the line for "NCCL ", for each record of a line of them
        record(b, at, at, level, level + LEVEL_WORD, e, true, null);
      }
    }
    if (!placed) {
      unplaced(b, s, e);
    }
  }

  /**
   * A line too short for a thread's prefix, NCCL's level token or any NCCL message (fewer than eight
   * bytes, no ESC): what {@link #line} does with it, less the searches that cannot find anything in
   * it. Another program's word ("Killed"), an exception's name after a traceback, are still read.
   */
  @Override
  public void shortLine(byte[] b, int s, int e, long lineNo, long head) {
    if (e > s && b[s] == '{') {
      line(b, s, e, lineNo, false, false); // a JSON record's decoding is line()'s
      return;
    }
    acc.lines++;
    hintBuf = null;
    quoteGate = false;
    if (e > s && b[e - 1] == '\r') {
      e--;
    }
    if (e == s) {
      acc.unplaced++;
      return;
    }
    long key = QuietLines.key(head, e - s);
    if (QuietLines.inert(head, e - s) || quietLines.known(key)) {
      // a counter, a value, a word read before: what unplaced() does with it, less the readers
      // whose answer is known (QuietLines)
      acc.unplaced++;
      scan.forget();
      textOf = null;
      lineFailed = false;
      lastSearchBare = true;
      slot.at(b, s, e, lineNo);
      if (tracebacks.raisedAt(b, s, s, e, 0)) {
        slot.record(acc.frameworkFailures[FrameworkFailures.PYTHON_EXCEPTION - 1]);
      } else if (tracebacks.waitingException()) {
        tracebacks.waitWith(slot);
      }
      return;
    }
    boolean whole = !Envelope.mayHaveSuffix(b[e - 1]) && !Envelope.mayEndInColumn(b, s, e);
    if (!whole) {
      e = Envelope.trimSuffix(b, s, e);
    }
    slot.at(b, s, e, lineNo);
    scan.forget();
    lineFailed = false;
    lastSearchBare = true;
    int t = textAfter(b, s, Envelope.afterShortWrappers(b, s, e), e, true); // as segment() finds it
    unplaced(b, s, e);
    if (quiet && whole && t == s) {
      quietLines.add(key); // (a line this short holds no report after a wrapper nor a traceback's header)
    }
  }

  /**
   * Where the text of the line at s with no envelope starts, past k (its wrappers' end): past
   * srun's padded label and a paste's quoting; noted for line() ({@link #textAt}) if {@code note}.
   */
  private int textAfter(byte[] b, int s, int k, int e, boolean note) {
    int m = k < e && b[k] == ' ' ? Envelope.afterLabel(b, k, e) : k; // srun's label, padded
    int unquoted = m;
    m = Envelope.afterQuoting(b, m, e); // and a paste's quoting, a table's time column
    if (note) {
      textOf = b;
      textFrom = s;
      textAt = m;
      textIndent = m - unquoted;
    }
    return m;
  }

  /**
   * Continues after the lines {@code before} read (those just before this unit, read into an
   * accumulator of their own): the one inference a line draws from NCCL's lines before it, where a
   * bare message starts past a wrapper no table knows ({@link UnknownWrappers#continueAfter}).
   */
  void continueAfter(LogParser before) {
    wrappers.continueAfter(before.wrappers);
  }

  @Override
  public void blankLines(byte[] b, int s, int count, long lineNo) {
    acc.lines += count;
    acc.unplaced += count;
    hintBuf = null;
    quoteGate = false;
  }

  /** A line no NCCL reader took: another program's, read for a failure or nccl-tests' preamble. */
  private void unplaced(byte[] b, int s, int e) {
    acc.unplaced++;
    quiet = false;
    boolean known = textOf == b && textFrom == s;
    int t = known ? textAt : s;
    boolean raised = tracebacks.raisedAt(b, s, t, e, known ? textIndent : 0);
    boolean crash = scan.crash(b, s, e);
    if (crash) {
      failure(b, s, e);
    } else {
      byte c = t < e ? b[t] : 0;
      int level = -1; // a c10 log line's level letter
      // a report is more than a byte, and its first two bytes are one of a few pairs
      int report = t + 1 < e && LauncherReports.mayStart(c, b[t + 1]) ? LauncherReports.kind(b, t, e)
          : LauncherReports.NONE;
      if (report != LauncherReports.NONE) {
        failure(report);
      } else if (c == '[' && (level = FrameworkFailures.logLevelAt(b, t, e)) >= 0
          && FrameworkFailures.storeUnresolved(b, level, e)) {
        slot.record(acc.frameworkFailures[FrameworkFailures.STORE_UNRESOLVED - 1]); // a warning: no failure
      } else if (level >= 0 && FrameworkFailures.processGroupError(b, level, e)
          || FrameworkFailures.fatalLine(b, c == 'F' ? t : level, e)) {
        failure(b, s, e); // PyTorch's process group's error; a logger's FATAL line, then abort()
      } else if ((scan.hashFree(b, s, e) || !TestsPreamble.parse(acc, slot, b, s, e)) && !lineFailed) {
        // an exception's line ending a traceback: maybe caught, no failure (nccl-tests' preamble
        // first: whether a line is one does not depend on the lines before, which may be unknown)
        if (raised) {
          slot.record(acc.frameworkFailures[FrameworkFailures.PYTHON_EXCEPTION - 1]);
        } else if (tracebacks.waitingException()) {
          tracebacks.waitWith(slot); // answered when this unit is merged after the one before
        }
        boolean wanted = reports.wanted();
        int w = wanted ? LauncherReports.afterOtherBytes(b, t, e) : -1;
        int kind = LauncherReports.NONE;
        if (w > 0) {
          kind = LauncherReports.kind(b, w, e);
          kind = kind != LauncherReports.NONE ? kind : FrameworkFailures.kind(b, s, e); // a FATAL line: by its words
        } else if (wanted && (w = Tracebacks.headerAfterOtherBytes(b, t, e)) > 0) {
          // a Python traceback's first line: what follows it is read relative to a wrapper that
          // a part's start may cut off, so its first line stands for it (a doubt, as its exception's)
          kind = FrameworkFailures.PYTHON_EXCEPTION;
        }
        quiet = level < 0 && w <= 0;
        if (w > 0) {
          // a report or a traceback after a wrapper no table knows: decided once the input's are known
          int k = Envelope.afterWrappers(b, s, e);
          if (w > k) {
            reports.add(b, k, UnknownWrappers.shapeEnd(b, k, w), kind, slot);
          }
        }
      }
    }
  }

  /** A line of another program that shows the job failing, and what PyTorch's words say of it. */
  private void failure(byte[] b, int s, int e) {
    failure(FrameworkFailures.kind(b, s, e));
  }

  /** A failing line (the slot's) of that {@link FrameworkFailures} kind, or of none (0). */
  private void failure(int kind) {
    lineFailed = true;
    slot.record(acc.failures);
    if (kind != 0) {
      slot.record(acc.frameworkFailures[kind - 1]);
    }
  }

  /**
   * Whether the line's text may be a quoted field with more fields after it (a logfmt value
   * before the collector's own keys, a CSV column before others), asked only where lineAt set
   * {@link #quoteGate} (the usual line, a cached prefix at its start, costs nothing): a cached
   * prefix past a quote; a line of no cached thread that may be a CSV row or a logfmt record (a
   * bare message's; {@link QuotedField#mayBeRow}: the line alone decides, so a file read in parts
   * gives what it gives read whole). {@link QuotedField} decides.
   */
  private boolean mayBeQuoted(byte[] b, int s, int e) {
    if (hintBuf != b || hintStart != s) {
      return false; // not the line lineAt saw: segment() finds a quoted record itself
    }
    // a cached prefix past a quote, or a bare message's field
    return hintSlot >= 0 || QuotedField.mayBeRow(b, s, e);
  }

  /**
   * Takes a channel line of a thread seen before without looking for its end first: the prefix
   * cache vouches for the prefix (no newline in it) and the channel scan stops at the newline.
   * Counts exactly what {@link #line} would; any other line is left to it, with what the prefix
   * lookup found, so that it is not done twice.
   */
  @Override
  public int lineAt(byte[] b, int s, int limit, long lineNo) {
    int k = Envelope.afterWrappers(b, s, limit);
    int hit = cachedSlot(b, k, limit);
    hintBuf = b;
    hintStart = s;
    hintSlot = hit;
    hintKey = k;
    hintFoundAt = foundAt;
    if (hit < 0) {
      quoteGate = true;
      return -1;
    }
    if (foundAt > s && (b[foundAt - 1] == '"' || Bytes.hasNewlineOrEscape(b, s, foundAt)
        || Bytes.indexOfByte(b, s, foundAt, (byte) '"') >= 0)) {
      // a quoted field (line() unquotes it), an ESC in a wrapper (line() strips it), a line
      // that ends inside one, or a quote before the thread's prefix: a JSON record's field whose
      // text starts with an escaped newline ("x\n" before the prefix), which line() decodes
      quoteGate = b[foundAt - 1] == '"';
      return -1;
    }
    // the cached prefix holds neither a newline nor an ESC either (PrefixCache.put): the reader's
    // search for the line's end starts after it
    int msg = foundAt + prefixes.length(hit);
    if (prefixes.warn(hit)) {
      return -2 - msg;
    }
    ChannelParser channels = messages.channels;
    int nl = channels.line(b, msg, limit);
    if (nl < 0) {
      return -2 - msg;
    }
    hintBuf = null;
    acc.lines++;
    acc.ncclLines++;
    slot.at(b, s, nl, lineNo);
    lastSlot = hit;
    if (fromPod(b, s, foundAt)) {
      slot.record(acc.kubernetes); // as record() counts every line of a Pod's
    }
    ProcessState proc = prefixes.process(hit);
    // (the usual: the host where the known wrappers end, and no wrapper before either)
    boolean wrapped = (prefixes.host(hit) != 0 || foundAt != k || wrappers.skew != 0)
        && seenWrapper(hit, b, k, foundAt);
    channels.apply(proc, b);
    reports.lastNccl = wrapped ? WrappedReports.WRAPPED : WrappedReports.BARE;
    return nl;
  }

  /**
   * A line found in the cache at slot {@code hit}, its prefix at {@code at}, the known wrappers
   * ending at k: what {@link #process} would note of the bytes between those and its host, and
   * whether there are any ({@link #parsedWrapped}). Returns the latter.
   */
  private boolean seenWrapper(int hit, byte[] b, int k, int at) {
    int host = prefixes.host(hit);
    if (host < 0) {
      return false;
    }
    wrappers.seen(b, k, at + host);
    return at + host > k;
  }

  /**
   * The cache slot of the line at s: the last line's thread first, then the table, then past a
   * wrapper nobody knows ({@link UnknownWrappers#find}); -1 if none. Where the cached prefix
   * starts: {@link #foundAt}.
   */
  private int cachedSlot(byte[] b, int s, int e) {
    foundAt = s;
    if (wrappers.first) { // the last line was found that way
      int hit = wrappers.find(b, s, e, lastSlot);
      if (hit >= 0) {
        foundAt = wrappers.foundAt;
        return hit;
      }
    }
    if (lastSlot >= 0 && prefixes.matches(lastSlot, b, s, e)) {
      wrappers.first = false;
      return lastSlot;
    }
    if (skipLookups > 0) {
      skipLookups--;
      return -1;
    }
    int hit = prefixes.find(b, s, e);
    if (hit >= 0) {
      wrappers.first = false;
    } else if (wrappers.varying && !wrappers.first && (hit = wrappers.find(b, s, e, lastSlot)) >= 0) {
      foundAt = wrappers.foundAt;
    }
    if (hit >= 0) {
      misses = 0;
    } else if (++misses == MISSES_BEFORE_SKIPPING) {
      // a log of more threads than the cache holds, none twice in a row (tens of thousands of
      // hosts): a lookup is three compares that find nothing. Skip most lookups, and look again
      // now and then (the cache is only a shortcut: a line not looked up is parsed in full)
      misses = 0;
      skipLookups = LOOKUPS_SKIPPED;
    }
    return hit;
  }

  private int foundAt; // where cachedSlot's prefix starts
  private final LineScan scan = new LineScan(); // what the envelope and crash pass found in the line
  // unplaced() found nothing in the line that depends on its bytes alone (QuietLines)
  private boolean quiet;
  private final QuietLines quietLines = new QuietLines();
  private boolean lastSearchBare; // the last line segment() searched for an envelope had none
  // where the text of the line [textFrom, ...) of textOf starts past its wrappers, labels and
  // quoting, as segment() found it (null: not found so)
  private byte[] textOf;
  private int textFrom;
  private int textAt;
  private boolean lineFailed; // the line being read was recorded as a failure
  private int textIndent; // the blanks and quoting before textAt (Python's tracebacks indent their frames)

  private boolean quotedRecord; // segment() found the line's record in a quoted field: read it unquoted
  private boolean readRaw; // segment() reads the line as it is (it asked, and no quoted field was there)
  // lineAt's word on the line it looked up: a cached prefix past a quote, or no cached prefix:
  // mayBeQuoted is asked (a line lineAt did not see is left to segment)
  private boolean quoteGate;

  /** Whether segment() may ask for the line [s, ...) of b to be read unquoted: it was not, yet. */
  private boolean mayUnquote(byte[] b) {
    return !readRaw && b != quoted.buffer();
  }

  private static final int MISSES_BEFORE_SKIPPING = 64;
  private static final int LOOKUPS_SKIPPED = 448;
  private int misses; // consecutive lookups that found nothing
  private int skipLookups; // lookups left to skip

  /** Parses one NCCL record starting in [s, e); returns false if nothing NCCL-like was found. */
  private boolean segment(byte[] b, int s, int e, boolean glued) {
    int hit = -1;
    int k = s;
    int lookup = s; // where the known wrappers end
    if (!glued && hintBuf == b && hintStart == s) {
      // lineAt looked this line's prefix up already (-1: not cached)
      hintBuf = null;
      k = lookup = hintKey;
      if (hintSlot >= 0 && e - hintFoundAt > prefixes.length(hintSlot)) {
        hit = hintSlot;
        k = hintFoundAt;
      }
    } else if (!glued) {
      k = lookup = Envelope.afterWrappers(b, s, e);
      hit = cachedSlot(b, k, e);
      k = hit >= 0 ? foundAt : k;
    }
    if (hit >= 0) {
      if (!glued && k > s && b[k - 1] == '"' && mayUnquote(b)) {
        quotedRecord = true; // line() reads it again, unquoted
        return false;
      }
      // a thread seen before
      lastSlot = hit;
      hitWrapped = (prefixes.host(hit) != 0 || k != lookup || wrappers.skew != 0)
          && seenWrapper(hit, b, lookup, k);
      int n = prefixes.length(hit);
      return record(b, s, k, k + n - LEVEL_WORD, k + n, e, false, prefixes.process(hit));
    }
    // after a line with no envelope, most likely another (other programs' output comes in runs):
    // the crash search in the same pass. A line of a thread not yet cached (its envelope near its
    // start) is searched for the envelope alone
    boolean withCrash = lastSearchBare;
    if (!withCrash) {
      scan.unscanned(); // (the crash scan tells whether the line may hold a "] I")
    }
    int at = withCrash ? scan.envelopeOrCrash(b, s, s, e) : indexOf(b, s, e, NCCL);
    lastSearchBare = at < 0;
    while (at >= 0) {
      int lv = at + 5;
      if ((startsWith(b, lv, e, INFO) || startsWith(b, lv, e, WARN)) && (lv + 4 == e || b[lv + 4] == ' ')) {
        // a level token, not "NCCL WARN" quoted in a grep or an alert rule
        if (!glued && mayUnquote(b) && QuotedField.holdsRecordAt(b, s, at)) {
          quotedRecord = true; // line() reads it again, unquoted
          return false;
        }
        int msg = Math.min(e, lv + 5);
        return record(b, s, k, at, msg, e, glued, null);
      }
      // (not at the end of a word, "ProcessGroupNCCL version": none of NCCL's lines nor a
      // framework's words about it start there)
      boolean word = Bytes.wordStartsAt(b, s, at);
      if (word && (startsWith(b, lv, e, TRACE) || startsWith(b, lv, e, CALL))) {
        acc.ncclLines++;
        return true;
      } else if (word && startsWith(b, lv, e, VERSION)) {
        acc.ncclLines++;
        messages.version(b, at, e);
        return true;
      } else if (word && startsWith(b, lv, e, FRAMEWORK_VERSION)) {
        // a framework's own line, e.g. PyTorch's "NCCL version: 2.18.1" or "(2, 18, 1)"
        messages.frameworkVersion(b, lv + FRAMEWORK_VERSION.length, e);
        return false;
      } else if (word && (startsWith(b, lv, e, FAILURE) || startsWith(b, lv, e, ERROR))) {
        // nccl-tests' "Test NCCL failure", PyTorch's "NCCL error in: ...": the job failed
        failure(b, s, e);
        // recorded: line() is not to record it again as a crash (a framework's exception names it too)
        scan.recorded(b, s, e);
        return false;
      }
      // "NCCL " that is no envelope ("ProcessGroupNCCL initialization", "NCCL version: 2.18.1"): the
      // rest of the line, and of its crash search
      at = withCrash ? scan.envelopeOrCrash(b, s, at + 1, e) : indexOf(b, at + 1, e, NCCL);
    }
    // an "NCCL " in another program's words ("last enqueued NCCL work") is no envelope either: the
    // next line is searched for a crash marker in the same pass, as after any other such line
    lastSearchBare = true;
    // before 2.3 there is no NCCL token: "host:pid:tid [dev] INFO message"
    // (by the pair "] ", not by each ']': other programs' lines hold brackets)
    for (int br = scan.bracketSeen() ? indexOf(b, s, e, BRACKET_SPACE) : -1; br >= 0;
        br = indexOf(b, br + 1, e, BRACKET_SPACE)) {
      if (oldLevelAt(b, br, e)) {
        prefix.parse(b, s, br + 2);
        if (prefix.hostStart >= 0) { // "host:pid:tid [dev] INFO", not any logger's "] INFO "
          if (!glued && mayUnquote(b) && QuotedField.holdsRecordAt(b, s, br)) {
            quotedRecord = true;
            return false;
          }
          return record(b, s, k, br + 2, br + 7, e, glued, null);
        }
      }
    }
    // A prefix the user stripped along with "NCCL INFO" (PyTorch's "Last error:" repeats the last
    // WARN's text): try the message families directly, after a timestamp as on any other line.
    int m = textAfter(b, s, k, e, !glued);
    if (e - s < LineSink.SHORT_LINE) {
      return false; // a fragment ("NET/IB" alone), as shortLine() reads it
    }
    if (m < e && messages.parseBare(b, m, e, scan.commFree(b, s, e)) || !glued && bareAfterWrapper(b, s, k, m, e)) {
      acc.ncclLines++;
      return true;
    }
    return false;
  }

  /**
   * A bare message after the wrapper that no table knows and that NCCL's lines around it had (a
   * line number, a logger's time or level, a launcher's host name): as far into the line as that
   * wrapper reached on them. Or after wrappers the line itself shows: known ones one after another,
   * the start of a JSON record or of a CSV cell that the line's reading did not take off.
   */
  private boolean bareAfterWrapper(byte[] b, int s, int k, int tried, int e) {
    boolean commFree = scan.commFree(b, s, e);
    // (any such wrapper, changing or not)
    int n = wrappers.skew;
    int other = wrappers.otherSkew;
    if (n > 0 && bareAt(b, k, k + n, tried, e, commFree) || other > 0 && bareAt(b, k, k + other, tried, e, commFree)) {
      return true;
    }
    // the line's own: known wrappers one after another (dmesg's seconds, then a runtime's time), the
    // first value of a JSON record that did not decode (cut short), a CSV cell that spans lines
    int chain = Envelope.afterWrapperChain(b, k, e);
    if (chain > k && chain != k + n && chain != k + other && bareAt(b, k, chain, tried, e, commFree)) {
      return true;
    }
    int value = tried < e && b[tried] == '{' ? JsonLogLine.firstValueAt(b, tried, e)
        : b[k] == '"' ? CsvCells.cellStart(b, k, e) : -1;
    if (value > k) {
      value = Envelope.afterQuoting(b, Envelope.afterWrapperChain(b, value, e), e); // as at a line's start
      if (value != k + n && value != k + other && bareAt(b, k, value, tried, e, commFree)) {
        return true;
      }
    }
    // a wrapper of that one's shape, without NCCL's own timestamp after it (not on another program's
    // line), a line number of other digits
    int at = wrappers.afterShape(b, k, e);
    if (at <= k) {
      return false;
    }
    at = Envelope.afterWrapperChain(b, at, e);
    return at != k + n && at != k + other && bareAt(b, k, at, tried, e, commFree); // (not where it was tried)
  }

  /**
   * A bare message at {@code at}, past the wrapper [k, at): only where a word starts (a wrapper ends
   * in a blank, a colon, a bracket, a quote; "ProcessGroupNCCL.cpp" holds no message at its "NCCL").
   */
  private boolean bareAt(byte[] b, int k, int at, int tried, int e, boolean commFree) {
    return at < e && at != tried && Bytes.wordStartsAt(b, k, at)
        && !UnknownWrappers.notAWrapper(b, k, at, e) && messages.parseBare(b, at, e, commFree);
  }

  /**
   * An NCCL record whose level token starts at {@code lvl} and message at {@code msg}; {@code k}:
   * where the line starts after its wrappers (the prefix cache's key). A second envelope inside the
   * message means two lines were glued together: split there.
   */
  private boolean record(byte[] b, int s, int k, int lvl, int msg, int e, boolean glued, ProcessState known) {
    acc.ncclLines++;
    slot.atRecord(k, lvl, msg);
    if (!glued && fromPod(b, s, lvl)) {
      // kubectl logs --prefix: the log comes from a Pod (every such record, cached prefix or not)
      slot.record(acc.kubernetes);
    }
    ProcessState proc = known != null ? known : process(b, s, k, lvl, msg, e, glued);
    if (!glued) {
      // whether it had a wrapper no table knows (WrappedReports): a cached prefix's slot knows
      // where its host starts (seenWrapper); a parsed one's line shows it
      boolean wrapped = known != null ? hitWrapped : parsedWrapped;
      reports.lastNccl = wrapped ? WrappedReports.WRAPPED : WrappedReports.BARE;
    }
    boolean warn = isWarn(b, lvl, msg);
    if (!warn && msg < e && (b[msg] == 'C' || b[msg] == 'R')) {
      // Channel lines are most of a large log: parse first, then look for a glued record only in
      // the tail the channel parser did not read.
      messages.parse(proc, b, msg, Bytes.trimEnd(b, msg, e));
      admission.end();
      int from = messages.consumed >= 0 ? messages.consumed : msg;
      int next = e - from > 8 ? nextLevel(b, from, e, lvl, gluedPrefix) : -1;
      if (next >= 0) {
        gluedAt = gluedStart(b, k, lvl, e, from, next);
        gluedLevel = next;
      }
      return true;
    }
    // Every rank prints the same WARN, unwind and once-per-process texts: one hash finds what is
    // known of such a text (whether it holds a glued record, which family takes it), so a repeat
    // skips those searches. Other texts (trees, affinity, a comm's own line) differ from rank to
    // rank, and a family's cheap first test keeps them from costing a hash.
    // A record glued after another may have more glued after it: its own end is found first, else
    // each record's hash would read the whole rest of the line (a hostile line of thousands of
    // them was quadratic).
    MessageTexts texts = messages.texts;
    int next = glued ? nextLevel(b, msg, e, lvl, gluedPrefix) : -1;
    int msgEnd = e;
    if (next >= 0) {
      msgEnd = gluedStart(b, k, lvl, e, msg, next);
    }
    int end = Bytes.trimEnd(b, msg, msgEnd);
    int text = MessageTexts.UNKNOWN;
    if (end > msg && end - msg <= MessageTexts.MAX_TEXT) {
      text = warn ? texts.find(b, msg, end)
          : !RareMessages.mayMatch(b, msg, end) ? MessageTexts.NOT_RARE
          : IbConnectionLines.is(b, msg, end) ? MessageTexts.IB_CONNECTION : texts.find(b, msg, end);
    }
    if (!glued) {
      next = (texts.flags(text) & MessageTexts.PLAIN) != 0 ? -1 : nextLevel(b, msg, e, lvl, gluedPrefix);
      if (next >= 0) {
        msgEnd = gluedStart(b, k, lvl, e, msg, next);
        end = Bytes.trimEnd(b, msg, msgEnd);
        text = MessageTexts.UNKNOWN;
      } else {
        texts.addFlags(text, MessageTexts.PLAIN);
      }
    }
    messages.parse(proc, b, msg, end, warn, text);
    admission.end();
    if (next >= 0) {
      gluedAt = msgEnd;
      gluedLevel = next;
    }
    return true;
  }

  /** Whether the line at s starts with kubectl's {@code [pod/NAME/CONTAINER] } (before {@code before}). */
  private static boolean fromPod(byte[] b, int s, int before) {
    return b[s] == '[' && Envelope.afterPod(b, s, before) > s;
  }

  /**
   * The start of the record whose level token is at {@code next} (searched from {@code from}), glued
   * after the record whose prefix is [k, lvl): {@link GluedSeam}.
   */
  private int gluedStart(byte[] b, int k, int lvl, int e, int from, int next) {
    gluedPrefix.parse(b, from, next);
    return Math.max(from, GluedSeam.start(b, k, lvl, e, gluedPrefix, ownPrefix));
  }

  /**
   * The process that printed the record. Consecutive lines of one thread share their prefix
   * byte for byte, so the previous answer is reused without parsing when the bytes match. A line
   * of a host outside the sample gets a state of its own, settled by {@link Admission#end} once
   * the line is parsed; such prefixes are not cached, so each of its lines is looked at.
   */
  private ProcessState process(byte[] b, int s, int k, int lvl, int msg, int e, boolean glued) {
    int n = lvl - s;
    if (lastProcess != null && !glued && n == lastPrefixLength && Bytes.equal(b, s, lastPrefix, n)) {
      parsedWrapped = lastProcessWrapped;
      if (lastProcessNoted >= 0) {
        wrappers.seen(b, k, k + lastProcessNoted);
      }
      return lastProcess;
    }
    prefix.parse(b, s, lvl);
    parsedWrapped = prefix.start > k && prefix.hostStart >= 0; // bytes between the wrappers and the host
    ProcessState proc = acc.processes.get(b, prefix.hostStart, prefix.hostEnd, prefix.pid, glued);
    if (!glued) {
      proc.hostOnlyAfterOtherBytes = false;
    }
    boolean outside = proc.host == null && prefix.hostStart >= 0;
    if (outside) {
      if (!glued && !isWarn(b, lvl, msg) && messages.channels.cleanConnection(b, msg, e)) {
        // most lines of a host outside the sample: they show nothing wrong, so they count in the
        // no-host state at once, as the settled probe would (Admission.end: merge, then evidence)
        proc.many = true;
      } else {
        proc = admission.begin(proc, b, prefix.hostStart, prefix.hostEnd, prefix.pid, glued);
      }
    }
    if (prefix.device >= 0 && prefix.device < 64) {
      proc.devices |= 1L << prefix.device;
    }
    if (outside) {
      lastProcess = null;
      lastPrefixLength = -1;
      lastSlot = -1;
    } else if (!glued) {
      if (lastPrefix.length < n) {
        lastPrefix = new byte[Math.max(n, 2 * lastPrefix.length)];
      }
      System.arraycopy(b, s, lastPrefix, 0, n);
      lastPrefixLength = n;
      lastProcess = proc;
      lastProcessWrapped = parsedWrapped;
      // "NCCL INFO " and "NCCL WARN " prefixes both: a failing job repeats its WARN lines on every
      // rank; and before 2.3, "INFO " and "WARN " (a cached prefix's level is read only by isWarn).
      // After the wrappers (a timestamp, a launcher's tag), from where lookups start: the lines
      // of a thread are found again from there (the host name is read back to the space before
      // it, as at a line's start). Bytes no table knows between the wrappers and the host are
      // matched too, unless they change from line to line (a line number, a time of day of a
      // format of its own): then the prefix is kept from the host on, and looked for that far
      // into the next lines (UnknownWrappers).
      int from = k > s && prefix.start >= k ? k : s;
      int noted = from == k && prefix.hostStart >= 0 ? prefix.start - k : -1;
      boolean fromHost = noted >= 0 && wrappers.note(b, k, prefix.start, proc);
      lastProcessNoted = noted;
      if (!isLevel(b, lvl, msg)) {
        lastSlot = -1;
      } else if (fromHost) {
        lastSlot = prefixes.putFromHost(b, prefix.start, lvl, msg - prefix.start, prefix.tidEnd, proc,
            isWarn(b, lvl, msg));
      } else {
        lastSlot = prefixes.put(b, from, lvl, msg - from, prefix.tidEnd, proc, isWarn(b, lvl, msg));
      }
      if (lastSlot >= 0 && noted >= 0) {
        prefixes.host(lastSlot, fromHost ? 0 : noted);
      }
    }
    return proc;
  }
}
