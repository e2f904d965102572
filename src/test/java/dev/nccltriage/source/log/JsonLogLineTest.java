package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The text field of a JSON-lines log record, wherever it is among the record's fields. */
class JsonLogLineTest {
  @ParameterizedTest
  @CsvSource(delimiterString = " => ", nullValues = "NOT", value = {
      "{\"log\":\"h:1:2 [0] NCCL INFO Using network IB\\n\",\"stream\":\"stdout\",\"time\":\"t\"} => h:1:2 [0] NCCL INFO Using network IB",
      "{\"log\": \"a \\\"quoted\\\" \\\\ path\\/x\\r\\n\", \"stream\": \"stderr\"} => a \"quoted\" \\ path/x",
      "{\"log\":\"a \\u001b[32mgreen\\u001b[0m b\\n\"} => a \u001b[32mgreen\u001b[0m b",
      "{\"log\":\"tab\\there \\u00e9 \\ud83d\\ude00 lone \\ud800!\"} => tab\there é 😀 lone \ufffd!",
      "{\"log\":\"partial line without its end\",\"stream\":\"stdout\"} => partial line without its end",
      "{\"log\":\"no closing quote => NOT",
      "{\"log\":\"bad escape \\x\"} => NOT",
      "{\"log\":\"short \\u12\"} => NOT",
      "{\"log\":\"value\" trailing} => NOT",
      "{\"log\":42} => NOT",
      "{\"stream\":\"stdout\",\"log\":\"other order\"} => other order",
      "{\"date\":1714550400.123,\"log\":\"fluent bit\\n\"} => fluent bit",
      "{\"kubernetes\":{\"pod_name\":\"w-0\",\"labels\":{\"a\":\"}{\"}},\"ids\":[1,[2,{}]],\"log\":\"nested first\"} => nested first",
      "{\"timestamp\": 1714550400123 , \"message\": \"cloudwatch\"} => cloudwatch",
      "{\"level\":\"info\",\"msg\":\"structured\",\"time\":\"t\"} => structured",
      "{\"__CURSOR\":\"s=1;i=2\",\"MESSAGE\":\"journald\",\"_PID\":\"7\"} => journald",
      "{\"textPayload\":\"gcp\",\"severity\":\"INFO\"} => gcp",
      "{\"log\":{\"nested\":\"object\"},\"message\":\"the first text field that is a string\"} => the first text field that is a string",
      "{\"stream\":\"stdout\",\"time\":\"t\"} => NOT",
      // a text field of a name of its own: the first string value holding NCCL's text, at any depth
      "{\"labels\":{\"pod\":\"w-0\"},\"line\":\"h:1:2 [0] NCCL INFO Using network IB\",\"timestamp\":\"t\"} => h:1:2 [0] NCCL INFO Using network IB",
      "{\"event\":\"h:1:2 [0] NCCL WARN \\\"x\\\"\\n\",\"level\":\"info\"} => h:1:2 [0] NCCL WARN \"x\"",
      "{\"jsonPayload\":{\"NCCL_DEBUG\":\"INFO\",\"text\":\"NCCL INFO Bootstrap : Using eth0\"},\"severity\":\"INFO\"} => NCCL INFO Bootstrap : Using eth0",
      "{\"body\":{\"values\":[\"a\", \"NCCL INFO x\" ]}} => NCCL INFO x",
      "{\"text\":\"no envelope here\",\"ts\":1} => NOT",
      "{\"labels\":{\"app\":\"NCCL tests\"},\"text\":\"h:1:2 [0] NCCL INFO the record, not the label\"} => h:1:2 [0] NCCL INFO the record, not the label",
      "{\"labels\":{\"app\":\"trainer\"},\"text\":\"Last error: a bare NCCL message\"} => Last error: a bare NCCL message",
      "{\"jsonPayload\":{\"n\":1,\"message\":\"nested, no envelope\"},\"severity\":\"INFO\"} => nested, no envelope",
      "{\"jsonPayload\":{\"message\":{\"a\":\"not the text\"},\"b\":\"x\"}} => NOT",
      "{\"labels\":{\"app\":\"trainer\"},\"line\":\"logcli, no envelope\"} => logcli, no envelope",
      "{\"line\":\"NCCL INFO cut\" => NOT",
      "{\"line\":\"NCCL INFO x\"] => NOT",
      "{\"a\":\"NCCL INFO x\"],\"b\":1} => NOT",
      "{\"a\":[1,2,\"unclosed} => NOT",
      "{\"a\" 1,\"log\":\"no colon\"} => NOT",
      "{} => NOT",
      "not json at all => NOT",
      // Splunk's export: the event under "result", its text "_raw"
      "{\"preview\":false,\"result\":{\"_raw\":\"Last error: bare\",\"_time\":\"t\",\"host\":\"h\"}} => Last error: bare",
  })
  void decodesTheTextFieldOrSaysItIsNotOne(String line, String expected) {
    assertThat(Decoded.text(new JsonLogLine(), line)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiterString = " => ", value = {
      "{\"log\":\"a \\u001b[32mgreen\\u001B[0m\"} => true",
      "{\"log\":\"no colour \\u001c \\\\u001b\"} => false",
      "{\"log\":\"plain\",\"x\":\"\\u001b\"} => false",
  })
  void saysWhetherItDecodedAnEscapedEsc(String line, boolean escape) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    JsonLogLine d = new JsonLogLine();
    assertThat(d.decode(b, 0, b.length)).isGreaterThanOrEqualTo(0);
    assertThat(d.decodedEscape()).isEqualTo(escape);
  }

  /**
   * Any text, written as JSON writers write it (escaped or raw bytes, quotes and backslashes
   * anywhere, other fields before it, a nested object holding quotes and brackets), decodes to
   * itself, and the escape flag is set exactly when an ESC was written escaped.
   */
  @Test
  void anyTextComesBackAsItWas() {
    Random r = new Random(11);
    String[] pieces = {"\"", "\\", "/", "\u001b", "\t", "\r", " ", "é", "😀", "{", "}", "[", "]", ",", ":"};
    for (int round = 0; round < 5000; round++) {
      StringBuilder text = new StringBuilder();
      int n = r.nextInt(60);
      for (int i = 0; i < n; i++) {
        text.append(r.nextInt(3) == 0 ? pieces[r.nextInt(pieces.length)] : String.valueOf((char) ('a' + r.nextInt(26))));
      }
      String t = text.toString();
      boolean escapeEsc = r.nextBoolean();
      StringBuilder json = new StringBuilder("{");
      if (r.nextBoolean()) {
        json.append("\"kubernetes\":{\"labels\":{\"a\\\"}\":\"[x]\"},\"n\":[1,{\"z\":\"}\"}]},");
      }
      json.append("\"log\":\"");
      for (char c : t.toCharArray()) { // (the emoji's two chars are written as they are)
        switch (c) {
          case '"' -> json.append("\\\"");
          case '\\' -> json.append("\\\\");
          case '\t' -> json.append(r.nextBoolean() ? "\\t" : "\t");
          case '\r' -> json.append("\\r");
          case '/' -> json.append(r.nextBoolean() ? "\\/" : "/");
          case '\u001b' -> json.append(escapeEsc ? (r.nextBoolean() ? "\\u001b" : "\\u001B") : "\u001b");
          case 'é' -> json.append(r.nextBoolean() ? "\\u00e9" : "é");
          default -> json.append(c);
        }
      }
      json.append(r.nextBoolean() ? "\\n" : "").append("\",\"stream\":\"stderr\"}");
      byte[] b = json.toString().getBytes(StandardCharsets.UTF_8);
      JsonLogLine d = new JsonLogLine();
      int len = d.decode(b, 0, b.length);
      String expected = t.replaceAll("[\r\n]+$", "");
      assertThat(len).as(json.toString()).isGreaterThanOrEqualTo(0);
      assertThat(new String(d.buffer(), 0, len, StandardCharsets.UTF_8)).as(json.toString()).isEqualTo(expected);
      assertThat(d.decodedEscape()).as(json.toString()).isEqualTo(escapeEsc && t.indexOf('\u001b') >= 0);
    }
  }

  /** A text field alone on its line, as a pretty-printed document holds it: under a text name only. */
  @ParameterizedTest
  @CsvSource(delimiterString = " => ", nullValues = "NOT", value = {
      "    \"textPayload\": \"h:1:2 [0] NCCL INFO Using network Socket\", => h:1:2 [0] NCCL INFO Using network Socket",
      "  \"message\" : \"last field, no comma\" => last field, no comma",
      "\"log\":\"a \\\"quoted\\\" word\\n\" , => a \"quoted\" word",
      "    \"insertId\": \"not a text name\", => NOT",
      "    \"textPayload\": 42, => NOT",
      "    \"textPayload\": \"unclosed => NOT",
      "    \"textPayload\": \"more after\", \"x\": 1 => NOT",
      "    \"textPayload\": \"a brace after\" } => NOT",
      "    textPayload: \"yaml, not json\" => NOT",
  })
  void decodesATextFieldAloneOnItsLine(String line, String expected) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    JsonLogLine d = new JsonLogLine();
    int n = d.field(b, 0, b.length);
    assertThat(n < 0 ? null : new String(d.buffer(), 0, n, StandardCharsets.UTF_8)).isEqualTo(expected);
  }

  /** A line end inside the text (a multi-line event) is told apart from the one that ends it. */
  @ParameterizedTest
  @CsvSource(delimiterString = " => ", value = {
      "{\"log\":\"one line\\n\"} => false",
      "{\"log\":\"one line\\r\\n\\n\"} => false",
      "{\"log\":\"Last error:\\nCall to ibv_reg_mr failed\"} => true",
      "{\"message\":\"\\nleading\"} => true",
      "{\"log\":\"a backslash n, not a line end: \\\\n\"} => false",
  })
  void saysWhetherTheTextHoldsSeveralLines(String line, boolean several) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    JsonLogLine d = new JsonLogLine();
    assertThat(d.decode(b, 0, b.length)).as(line).isGreaterThanOrEqualTo(0);
    assertThat(d.decodedNewline()).as(line).isEqualTo(several);
  }
}
