package dev.nccltriage.source.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The text field of a JSON-lines log record, wherever it is among the record's fields. */
class JsonLogLineTest {
  private static String decode(String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    JsonLogLine d = new JsonLogLine();
    int n = d.decode(b, 0, b.length);
    return n < 0 ? null : new String(d.buffer(), 0, n, StandardCharsets.UTF_8);
  }

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
      "{\"a\":[1,2,\"unclosed} => NOT",
      "{\"a\" 1,\"log\":\"no colon\"} => NOT",
      "{} => NOT",
      "not json at all => NOT",
  })
  void decodesTheTextFieldOrSaysItIsNotOne(String line, String expected) {
    assertThat(decode(line)).isEqualTo(expected);
  }
}
