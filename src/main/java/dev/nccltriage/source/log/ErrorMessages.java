package dev.nccltriage.source.log;

import dev.nccltriage.facts.ErrorKind;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Error signatures (verbs failures, completion errors, GID, missing libraries, NET plugin load and
 * init failures, backtraces) and the NET/Plugin lines every process prints. Rare: regular
 * expressions are fine here, behind a substring test where every process prints the line.
 */
final class ErrorMessages {
  /** WARN lines of init-time probing that NCCL recovers from by trying the next transport. */
  private static final Pattern RECOVERABLE =
      Pattern.compile("^(?:Failed to open libibverbs|Count not open|dlvsym failed|Call to ibv_open_device failed"
          + "|Call to ibv_get_device_list failed|NET/IB ?: ?Unable to (?:open|query)|NET/IB ?: ?No IP interface found"
          + "|NET/Plugin|Could not find|No plugin found"
          // a net plugin that cannot start is skipped for the next network (spec §2)
          + "|NET/OFI (?:OFI )?(?:fi_getinfo\\(\\) call failed|aws-ofi-nccl initialization failed|Initializing plugin failed"
          + "|Couldn't find any optimal provider|No eligible providers))"
          // IB async events that follow routine subnet changes: the job goes on (2.28.7+ says so)
          + "|" + routineAsyncEventPattern());
  // RECOVERABLE's anchored branch, tried once at the start of a text; its other branches (which may
  // match anywhere) are found by routineAsyncEvent without an expression
  private static final Pattern RECOVERABLE_START = Pattern.compile(
      RECOVERABLE.pattern().substring(0, RECOVERABLE.pattern().indexOf("|" + routineAsyncEventPattern())));

  private static String routineAsyncEventPattern() {
    return "(?:[Aa]sync event|non-fatal async event).*(?:GID table change|client reregistration|LID change|SM change"
        + "|P_?Key change|port active|PORT_ACTIVE|GID_CHANGE|CLIENT_REREGISTER|LID_CHANGE|SM_CHANGE|PKEY_CHANGE"
        + "|communication established|COMM_EST|last WQE reached|SRQ limit reached|path migrated)"
        + "|non-fatal async event";
  }

  /** Distinct texts remembered (each rank of a failing job prints the same ones): bounded. */
  private static final int MEMO = 16384;

  private final LogAccumulator acc;
  private final EvidenceSlot slot;
  private final MessageTexts texts;
  // by the text as printed (its String is the slot's, hashed once), then by the text with its peer
  // addresses masked (PeerAddresses), so that a connect error to a new peer is no new classification
  private final TextMemo<Known> byMasked = new TextMemo<>(MEMO, msg -> new Known(ErrorSignatures.classify(msg)));
  private final TextMemo<Known> outcomes =
      new TextMemo<>(MEMO, msg -> PeerAddresses.lookUp(msg, byMasked::get, (form, m) -> servesForm(form, null, 0, m)));
  private final OfiOutcomes ofiOutcomes = new OfiOutcomes(MEMO);
  private String lastText;
  private Known lastKnown;

  /** A text's outcome, and the error entry of this accumulator it counts into (once looked up). */
  private static final class Known {
    final ErrorSignatures.Outcome outcome;
    LogAccumulator.ErrAcc errors;
    Boolean recoverable; // for a WARN text, once asked
    byte servesForm; // for a masked text's: 0 not asked yet, 1 it serves every text of its form, 2 not

    Known(ErrorSignatures.Outcome outcome) {
      this.outcome = outcome;
    }
  }

  ErrorMessages(LogAccumulator acc, EvidenceSlot slot, MessageTexts texts) {
    this.acc = acc;
    this.slot = slot;
    this.texts = texts;
  }

  /**
   * The entry of a text kept in {@link MessageTexts} at slot {@code text} (held there once found),
   * else ({@link MessageTexts#NONE}) of the text not kept. A WARN line asks up to three times (its
   * family, its signature, whether it is recoverable).
   */
  private Known known(int text) {
    if (text < 0) {
      return known(texts.text(text));
    }
    // (a slot may hold another family's memo, TextMemo's: a text routed elsewhere printed as WARN)
    Known known = texts.meaning(text) instanceof Known k ? k : null;
    if (known == null) {
      // a new text (a failing job's errors name new peers) is not hashed and kept a second time
      // by its String, and is decoded only if its masked text's answer does not serve
      known = keptKnown(text);
      texts.meaning(text, known);
    }
    return known;
  }

  /** The entry of a text not kept in MessageTexts: the last one is checked by identity first. */
  private Known known(String msg) {
    if (msg == lastText) {
      return lastKnown;
    }
    Known known = outcomes.get(msg);
    lastText = msg;
    lastKnown = known;
    return known;
  }

  /**
   * The entry of a text kept in {@link MessageTexts} at slot {@code text}: what {@link PeerAddresses#lookUp}
   * answers, asked of its masked bytes. A text without an address is classified (its slot holds
   * the answer from then on).
   */
  private Known keptKnown(int text) {
    int masked = texts.masked(text);
    if (masked < 0) {
      return classified(texts, text);
    }
    MessageTexts masks = texts.masks();
    Object form = masks.meaning(masked);
    Known known;
    if (form instanceof Known k) {
      known = k;
    } else if (form != FORM_SEEN) {
      // a form's first text is classified alone: a form that never comes back (an id in a detail)
      // then costs one classification a line, not three (the form's, the form masked otherwise's,
      // its own); its second text pays for the form's answer
      masks.meaning(masked, FORM_SEEN);
      return classified(texts, text);
    } else {
      known = classified(masks, masked);
      masks.meaning(masked, known);
    }
    return servesForm(known, texts, text, null) ? known : classified(texts, text);
  }

  /** {@link MessageTexts#meaning} of a masked text seen once: its answer not yet asked for. */
  private static final Object FORM_SEEN = new Object();

  /**
   * Whether a masked text's entry serves every text of its form ({@link PeerAddresses#formServes}),
   * asked with one of them (kept at {@code in}'s slot, else {@code msg}): once a form, so that a
   * failing job's errors to new peers, whose detail quotes a number, are not each classified.
   */
  private static boolean servesForm(Known form, MessageTexts in, int slot, String msg) {
    if (form.servesForm == 0) {
      form.servesForm = PeerAddresses.formServes(form.outcome, msg != null ? msg : in.text(slot)) ? (byte) 1 : (byte) 2;
    }
    return form.servesForm == 1;
  }

  /** The meaning of a kept text, its guard words found in its bytes (no copy of them). */
  private static Known classified(MessageTexts in, int slot) {
    int from = in.offset(slot);
    int to = from + in.length(slot);
    int guards = GuardWords.of(in.pool(), from, to);
    if (to > from && ErrorSignatures.surelyUnknown(guards, in.pool()[from])) {
      return new Known(ErrorSignatures.Outcome.UNKNOWN); // (not decoded: see isRecoverable)
    }
    return new Known(ErrorSignatures.classify(in.text(slot), guards));
  }

  /** Error signatures; also the catch-all for NET/IB and NET/Socket lines no other shape claimed. */
  boolean parse(ProcessState p, String msg) {
    return parse(p, known(msg));
  }

  /** As {@link #parse(ProcessState, String)}, for the text at {@code text} in {@link MessageTexts} (or NONE). */
  boolean parse(ProcessState p, int text) {
    return parse(p, known(text));
  }

  private boolean parse(ProcessState p, Known known) {
    ErrorSignatures.Outcome o = known.outcome;
    if (o.failure()) {
      slot.record(acc.failures);
      p.wrongLine = true;
    }
    if (o.pluginLoaded() != null) {
      slot.record(acc.pluginLoaded(o.pluginLoaded()));
      p.pluginLoaded = true;
    }
    p.noVerbs |= o.noVerbs();
    p.ibFailed |= o.ibFailed();
    if (o.invalidRankOf() >= 0) {
      acc.invalidRankOf = Math.max(acc.invalidRankOf, o.invalidRankOf());
    }
    if (o.kind() != null) {
      if (known.errors == null) {
        known.errors = acc.error(o.kind(), o.detail(), o.status());
      }
      error(p, o.kind(), known.errors);
    }
    return o.known();
  }


  /**
   * Whether the WARN text at {@code text} in {@link MessageTexts} (or NONE) is one NCCL goes on
   * after (an init probe, a routine async event). Every rank of a failing job prints the same
   * WARN: remembered with its entry.
   */
  boolean isRecoverable(int text) {
    Known known = known(text);
    if (known.recoverable == null) {
      // a kept text that cannot be recoverable is told so from its bytes, and not decoded
      boolean may = text < 0 || mayBeRecoverable(texts.pool(), texts.offset(text), texts.offset(text) + texts.length(text));
      known.recoverable = may && recoverable(texts.text(text), true);
    }
    return known.recoverable;
  }

  private static final byte[] SYNC_EVENT = Bytes.ascii("sync event");

  /**
   * False where {@link #recoverable(String, boolean)} is false for the text of UTF-8 bytes
   * b[from, to), told from the bytes: its first character starts none of the recoverable starts,
   * and "sync event" is not in it (ASCII, so in the bytes exactly when in the text).
   */
  private static boolean mayBeRecoverable(byte[] b, int from, int to) {
    return from < to
        && (RECOVERABLE_FIRST.indexOf((char) (b[from] & 0xFF)) >= 0 || Bytes.indexOf(b, from, to, SYNC_EVENT) >= 0);
  }

  /** {@code guarded} false: the expression alone (tests check that the guard changes nothing). */
  static boolean recoverable(String msg, boolean guarded) {
    if (!guarded) {
      return RECOVERABLE.matcher(msg).find();
    }
    return startsRecoverably(msg) && RECOVERABLE_START.matcher(msg).lookingAt() || routineAsyncEvent(msg);
  }

  /**
   * Whether RECOVERABLE's async-event branches match anywhere, without an expression: "non-fatal async event" anywhere,
   * or in a line of the text (its '.' stops at line terminators) the first "[Aa]sync event"
   * followed by a routine change. The expression's find() ran its ".*" to the end of the text from
   * every "async event" (a hostile line of thousands took seconds).
   */
  static boolean routineAsyncEvent(String msg) {
    int event = msg.indexOf("sync event");
    if (event < 0) {
      return false; // most texts: one search
    }
    if (msg.indexOf("non-fatal async event", Math.max(0, event - "non-fatal a".length())) >= 0) {
      return true;
    }
    int from = 0;
    for (int i = 0; i <= msg.length(); i++) {
      if (i == msg.length() || isLineTerminator(msg.charAt(i))) {
        if (routineAfterFirstEvent(msg, from, i)) {
          return true;
        }
        from = i + 1;
      }
    }
    return false;
  }

  private static boolean routineAfterFirstEvent(String msg, int from, int to) {
    int a = msg.indexOf("sync event", from + 1);
    while (a >= 0 && a + "sync event".length() <= to && msg.charAt(a - 1) != 'a' && msg.charAt(a - 1) != 'A') {
      a = msg.indexOf("sync event", a + 1);
    }
    if (a < 0 || a + "sync event".length() > to) {
      return false;
    }
    String line = msg.substring(a + "sync event".length(), to);
    for (String change : ROUTINE_CHANGES) {
      if (line.contains(change)) {
        return true;
      }
    }
    return false;
  }

  private static boolean isLineTerminator(char c) {
    return c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029';
  }

  private static final String[] ROUTINE_CHANGES = {
    "GID table change", "client reregistration", "LID change", "SM change", "PKey change", "P_Key change",
    "port active", "PORT_ACTIVE", "GID_CHANGE", "CLIENT_REREGISTER", "LID_CHANGE", "SM_CHANGE", "PKEY_CHANGE",
    "communication established", "COMM_EST", "last WQE reached", "SRQ limit reached", "path migrated"
  };

  /** A test every text {@link #RECOVERABLE_START} matches passes: one of its literal starts. */
  private static boolean startsRecoverably(String msg) {
    if (msg.isEmpty() || RECOVERABLE_FIRST.indexOf(msg.charAt(0)) < 0) {
      return false; // most texts, each new one of a failing job's: one test, not a startsWith each
    }
    for (String start : RECOVERABLE_STARTS) {
      if (msg.startsWith(start)) {
        return true;
      }
    }
    return false;
  }

  private static final String[] RECOVERABLE_STARTS = {
    "Failed to open libibverbs", "Count not open", "dlvsym failed", "Call to ibv_", "NET/IB", "NET/Plugin",
    "NET/OFI ", "Could not find", "No plugin found"
  };
  /** The first characters of {@link #RECOVERABLE_STARTS}. */
  private static final String RECOVERABLE_FIRST = ErrorSignatures.firstCharacters(RECOVERABLE_STARTS);

  /** aws-ofi-nccl's failures (its own "NET/OFI ..." lines); any other NET/OFI line is known and ignored. */
  boolean ofi(ProcessState p, String msg) {
    OfiOutcomes.Outcome o = ofiOutcomes.of(msg);
    switch (o.kind()) {
      case NET_PLUGIN_INIT -> {
        p.ofiFailed = true;
        return error(p, ErrorKind.NET_PLUGIN_INIT, "aws-ofi-nccl", null);
      }
      case IBV_REG_MR, PLUGIN_CQ -> {
        return error(p, o.kind(), o.detail(), null);
      }
      default -> {
        return true;
      }
    }
  }

  /** What a NET/Plugin text says: BENIGN, LOAD_FAILED (value: why), LOADED (value: the plugin), or NONE. */
  private record PluginText(int kind, String value) {}

  private static final int BENIGN = 1;
  private static final int LOAD_FAILED = 2;
  private static final int LOADED = 3;
  private static final int NONE = 0;
  private final TextMemo<PluginText> pluginSeen = new TextMemo<>(MEMO, ErrorMessages::pluginText);

  /**
   * NET/Plugin lines, printed by every process: what a text says is worked out once. {@code msg}
   * is the text kept in {@code kept} at {@code at}.
   */
  boolean pluginLine(ProcessState p, MessageTexts kept, int at, String msg) {
    PluginText t = pluginSeen.get(kept, at, msg);
    switch (t.kind) {
      case BENIGN -> {
        return true;
      }
      case LOAD_FAILED -> {
        return error(p, ErrorKind.NET_PLUGIN_LOAD, t.value, null);
      }
      case LOADED -> {
        slot.record(acc.pluginLoaded(t.value));
        p.pluginLoaded = true;
        return true;
      }
      default -> {
        return false;
      }
    }
  }

  /** A substring test before each expression. */
  private static PluginText pluginText(String msg) {
    if (msg.contains("Plugin load returned") && isBenignLoadFailure(msg) && !msg.contains("Loaded net plugin")) {
      return new PluginText(BENIGN, null); // what the expression below would decide, without running it
    }
    Matcher m = msg.contains("Plugin load returned") ? ErrorSignatures.PLUGIN_LOAD_FAILED.matcher(msg) : null;
    if (m != null && m.find()) {
      return isBenignLoadFailure(m.group(2)) ? new PluginText(BENIGN, null) : new PluginText(LOAD_FAILED, m.group(2));
    }
    m = msg.contains("Loaded net plugin") ? ErrorSignatures.PLUGIN_LOADED.matcher(msg) : null;
    if (m != null && m.find()) {
      return new PluginText(LOADED, m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
    }
    return new PluginText(NONE, null);
  }

  private static boolean isBenignLoadFailure(String msg) {
    return ErrorSignatures.isBenignLoadFailure(msg);
  }

  private boolean error(ProcessState p, ErrorKind kind, String detail, Integer status) {
    return error(p, kind, acc.error(kind, detail, status));
  }

  private boolean error(ProcessState p, ErrorKind kind, LogAccumulator.ErrAcc e) {
    switch (kind) {
      case IBV_OPEN_DEVICE, IB_DEVICE_UNUSABLE, IB_NO_IP_INTERFACE, LIBIBVERBS_MISSING -> p.ibFailed = true;
      case COMPLETION, ASYNC_EVENT, IBV_MODIFY_QP, IBV_REG_DMABUF_MR -> p.ibRuntimeError = true;
      case IBV_REG_MR -> p.ibRuntimeError |= !p.ofiSeen;
      default -> { }
    }
    acc.errorLines++;
    p.wrongLine = true;
    e.seeHost(p.host);
    slot.record(e.evidence);
    return true;
  }

}
