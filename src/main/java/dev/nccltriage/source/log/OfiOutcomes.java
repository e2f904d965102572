package dev.nccltriage.source.log;

import dev.nccltriage.facts.ErrorKind;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What aws-ofi-nccl's own failure texts ("NET/OFI ...") mean: its initialisation failed, a memory
 * registration failed (and why), a completion came with an error; anything else (kind SYSTEM_ERROR)
 * stands for nothing. A failing job's texts each name a new peer: they are read by their form with
 * the peers masked ({@link PeerAddresses}) where that form's answer serves them all.
 */
final class OfiOutcomes {
  private static final Pattern OFI_INIT = Pattern.compile("(?:initialization failed|Initializing plugin failed|Failed to initialize)");
  private static final Pattern OFI_REG =
      Pattern.compile("(?:Unable to register memory|[Rr]egistration failed|fi_mr_reg).{0,256}?(?:Error: ?|: )([A-Za-z][^.(]*?)\\s*(?:\\(|\\.|$)");
  private static final Pattern OFI_CQ = Pattern.compile("(?:completed with error|fi_cq_readerr|CQ error|Completion error)");

  record Outcome(ErrorKind kind, String detail) {}

  /** A masked text's outcome, and whether it serves every text of its form (0 not asked, 1 yes, 2 no). */
  private static final class Form {
    final Outcome outcome;
    byte serves;

    Form(Outcome outcome) {
      this.outcome = outcome;
    }
  }

  private final TextMemo<Outcome> seen;
  private final TextMemo<Form> forms;

  /** {@code memo}: the distinct texts (and forms) remembered. */
  OfiOutcomes(int memo) {
    forms = new TextMemo<>(memo, msg -> new Form(classify(msg)));
    seen = new TextMemo<>(memo, msg -> PeerAddresses.lookUp(msg, forms::get, OfiOutcomes::serves).outcome);
  }

  /** The outcome of a NET/OFI text, remembered. */
  Outcome of(String msg) {
    return seen.get(msg);
  }

  /** Whether a form's outcome serves every text of it, asked once a form. */
  private static boolean serves(Form form, String original) {
    if (form.serves == 0) {
      form.serves = formServes(form.outcome, original) ? (byte) 1 : (byte) 2;
    }
    return form.serves == 1;
  }

  /** As {@link PeerAddresses#formServes}, for a NET/OFI text's outcome. */
  static boolean formServes(Outcome ofForm, String original) {
    Outcome other = classify(PeerAddresses.maskedOtherwise(original));
    return other.kind() == ofForm.kind() && java.util.Objects.equals(ofForm.detail(), other.detail());
  }

  /** What a NET/OFI text means: each expression behind its literal. */
  static Outcome classify(String msg) {
    return classify(msg, true);
  }

  static Outcome classify(String msg, boolean guarded) {
    boolean all = !guarded;
    if ((all || msg.contains("nitializ")) && OFI_INIT.matcher(msg).find()) {
      return new Outcome(ErrorKind.NET_PLUGIN_INIT, null);
    }
    Matcher m = all || msg.contains("egist") || msg.contains("fi_mr_reg") ? OFI_REG.matcher(msg) : null;
    if (m != null && m.find()) {
      return new Outcome(ErrorKind.IBV_REG_MR, m.group(1).strip());
    }
    if ((all || msg.contains("err")) && OFI_CQ.matcher(msg).find()) {
      return new Outcome(ErrorKind.PLUGIN_CQ, null);
    }
    return new Outcome(ErrorKind.SYSTEM_ERROR, null);
  }
}
