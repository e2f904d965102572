package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Random;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Expressions that ran an unbounded gap to the end of the text from every occurrence of their
 * literal (quadratic on a hostile line) were bounded or replaced; on every message of the real logs,
 * and on texts made of their own words, the new ones answer as the old ones did.
 */
class LinearExpressionsTest {
  private static final Pattern OLD_GID =
      Pattern.compile("(?i)\\bgid\\b.*\\b(?:fail|unable|not found|invalid|no valid)|(?:fail|unable|no valid).*\\bgid\\b");
  private static final Set<String> MESSAGES = new LinkedHashSet<>();

  @BeforeAll
  static void load() {
    MESSAGES.addAll(LogLines.realMessages());
    assertThat(MESSAGES).hasSizeGreaterThan(800);
    MESSAGES.addAll(ErrorGuardsTest.SHAPES); // the error shapes, some of which no sample holds
  }

  @Test
  void gidFailureAnswersAsTheExpressionOnRealMessagesAndErrorShapes() {
    int hits = 0;
    for (String m : MESSAGES) {
      boolean old = OLD_GID.matcher(m).find();
      assertThat(ErrorSignatures.hasGidFailure(m)).as(m).isEqualTo(old);
      hits += old ? 1 : 0;
    }
    assertThat(hits).as("messages with a GID failure").isPositive();
  }

  @Test
  void gidFailureAnswersAsTheExpressionOnTextsOfItsOwnWords() {
    String[] words = {"gid", "GID", "Gid", "fail", "FAILED", "unable", "not found", "invalid", "no valid", "prefail",
        "gidx", "xgid", "_gid", "gid_", " ", " ", " ", "x", "-", "\n", "\r", "\u2028", "index", "found", "valid"};
    Random r = new Random(42);
    int hits = 0;
    for (int i = 0; i < 50_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int w = r.nextInt(9); w >= 0; w--) {
        b.append(words[r.nextInt(words.length)]);
      }
      String m = b.toString();
      boolean old = OLD_GID.matcher(m).find();
      assertThat(ErrorSignatures.hasGidFailure(m)).as("\"%s\"", m).isEqualTo(old);
      hits += old ? 1 : 0;
    }
    assertThat(hits).isGreaterThan(500);
  }

  @ParameterizedTest
  @CsvSource(delimiterString = " @ ", value = {
      "GdrMessages @ GDR_NO_MODULE @ GPU Direct RDMA Disabled for HCA \\d+ '[^']*' \\(no module\\)",
      "GdrMessages @ GDR_PAIR_KEY @ RDMA (?:Enabled|Disabled) for (.*?)[(,] ?distance",
      "GdrMessages @ GDR_DISTANCE @ GPU Direct RDMA (Enabled|Disabled) for .*?[(,] ?distance (\\d+) (<=|>=|>|<) (\\d+)",
      "OfiOutcomes @ OFI_REG @ (?:Unable to register memory|[Rr]egistration failed|fi_mr_reg).*?(?:Error: ?|: )([A-Za-z][^.(]*?)\\s*(?:\\(|\\.|$)",
      "ErrorSignatures @ ASYNC @ (?:Got async (?:error )?event|async fatal event|Got non-fatal async event)[^:]*: ?(.*)$",
      "NetTexts @ MERGED @ \\[(\\d+)\\]=\\{([^}]*)\\}",
  })
  void boundedExpressionsFindWhatTheUnboundedOnesFoundInRealMessages(String owner, String field, String old)
      throws Exception {
    Field f = Class.forName("dev.nccltriage.source.log." + owner).getDeclaredField(field);
    f.setAccessible(true);
    Pattern bounded = (Pattern) f.get(null);
    Pattern unbounded = Pattern.compile(old);
    int found = 0;
    for (String m : MESSAGES) {
      Matcher a = unbounded.matcher(m);
      Matcher b = bounded.matcher(m);
      boolean hit = a.find();
      assertThat(b.find()).as(m).isEqualTo(hit);
      if (hit) {
        found++;
        assertThat(b.group()).as(m).isEqualTo(a.group());
        for (int g = 1; g <= a.groupCount(); g++) {
          assertThat(b.group(g)).as("%s group %d", m, g).isEqualTo(a.group(g));
        }
      }
    }
    // an expression no real message reaches proves nothing here; say which
    assertThat(found).as("real messages %s matches", field).isPositive();
  }

  private static final Pattern OLD_ENV = Pattern.compile("^(NCCL_[A-Z0-9_]+) set (?:by environment )?to (.*?)$");

  /** An env echo's name and value, read as the expression did: real messages, texts of its own words. */
  @Test
  void envNameAndValueAnswerAsTheExpression() {
    String[] words = {"NCCL_", "NCCL_IB_HCA", "NCCL_X9", "ncc", " set ", "by environment ", "to ", "to", " ", "=mlx5_0:1",
        "0.", "\n", "\r", "\r\n", "\u0085", "\u2028", "\u2029", "x", "é", "set"};
    Random r = new Random(11);
    Set<String> texts = new LinkedHashSet<>(MESSAGES);
    for (int i = 0; i < 50_000; i++) {
      StringBuilder b = new StringBuilder(r.nextBoolean() ? "NCCL_A set to " : "");
      for (int w = r.nextInt(7); w >= 0; w--) {
        b.append(words[r.nextInt(words.length)]);
      }
      texts.add(b.toString());
    }
    int hits = 0;
    for (String m : texts) {
      Matcher old = OLD_ENV.matcher(m);
      String[] nv = EnvLines.nameAndValue(m);
      if (old.find()) {
        hits++;
        assertThat(nv).as("\"%s\"", m).containsExactly(old.group(1), old.group(2));
      } else {
        assertThat(nv).as("\"%s\"", m).isNull();
      }
    }
    assertThat(hits).isGreaterThan(3000);
    String longValue = "NCCL_IB_HCA set by environment to " + "=mlx5_0:1,".repeat(20_000);
    assertThat(EnvLines.nameAndValue(longValue)[1]).hasSize(200_000);
  }

  /** RECOVERABLE's async-event branches as an expression, which find() ran to the end from each event. */
  private static final Pattern OLD_ROUTINE_ASYNC_EVENT = Pattern.compile(
      "(?:[Aa]sync event|non-fatal async event).*(?:GID table change|client reregistration|LID change|SM change"
          + "|P_?Key change|port active|PORT_ACTIVE|GID_CHANGE|CLIENT_REREGISTER|LID_CHANGE|SM_CHANGE|PKEY_CHANGE"
          + "|communication established|COMM_EST|last WQE reached|SRQ limit reached|path migrated)"
          + "|non-fatal async event");

  @Test
  void routineAsyncEventsAnswerAsTheExpression() {
    String[] words = {"async event", "Async event", "sync event", "non-fatal async event", "non-fatal ", "GID table change",
        "P_Key change", "PKey change", "PKEY_CHANGE", "port active", "path migrated", "COMM_EST", "event", " ", ": ", "x",
        "\n", "\r", "\u2028", "\u0085", "Got ", "fatal"};
    Random r = new Random(7);
    Set<String> texts = new LinkedHashSet<>(MESSAGES);
    for (int i = 0; i < 50_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int w = r.nextInt(7); w >= 0; w--) {
        b.append(words[r.nextInt(words.length)]);
      }
      texts.add(b.toString());
    }
    int hits = 0;
    for (String m : texts) {
      boolean old = OLD_ROUTINE_ASYNC_EVENT.matcher(m).find();
      assertThat(ErrorMessages.routineAsyncEvent(m)).as("\"%s\"", m).isEqualTo(old);
      hits += old ? 1 : 0;
    }
    assertThat(hits).isGreaterThan(1000);
  }

  @Test
  void aLineOfThousandsOfAsyncEvents() {
    String m = "NET/IB : Got async event ".repeat(15_000);
    assertThat(ErrorMessages.recoverable(m, true)).isFalse();
    assertThat(ErrorMessages.recoverable(m + "GID table change", true)).isTrue();
    assertThat(ErrorSignatures.classify("Got async event ".repeat(15_000)).kind()).isNull(); // no ": " after one
    assertThat(ErrorSignatures.classify("Got async event" + "x".repeat(300) + ": x").kind()).isNull(); // too far
    assertThat(ErrorSignatures.classify("async fatal event ".repeat(15_000) + "async fatal event: QP").detail())
        .isEqualTo("QP");
  }

  @Test
  void aLineOfThousandsOfConnects() {
    String m = "Connect to ".repeat(15_000) + "Proxy Call to rank ";
    assertThat(ErrorSignatures.classify(m).kind()).isNull();
    assertThat(ErrorSignatures.classify(m + "7 failed (Connect)").detail()).isEqualTo("proxy connect to rank 7");
  }

  @Test
  void aLineOfThousandsOfGids() {
    String m = "gid ".repeat(15_000);
    assertThat(ErrorSignatures.hasGidFailure(m)).isFalse();
    assertThat(ErrorSignatures.hasGidFailure(m + "failed")).isTrue();
    assertThat(ErrorSignatures.hasGidFailure("unable " + m)).isTrue();
  }
}
