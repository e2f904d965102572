package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What Main starts ahead of the command, from the raw arguments. */
class PreloadTest {
  @ParameterizedTest(name = "{0}: rules {1}, json {2}")
  @CsvSource(delimiter = '|', value = {
    "log f.log                 | true  | false",
    "log -o json f.log         | true  | true",
    "log --output json f.log   | true  | true",
    "log --output=json f.log   | true  | true",
    "log -ojson f.log          | true  | true",
    "log -o markdown f.log     | true  | false",
    "check --pid 1             | true  | false",
    "preflight                 | true  | true",
    "lint -o json pod.yaml     | true  | true",
    "bw f.log                  | true  | false",
    "capture                   | false | false",
    "guide                     | false | false",
    "--version                 | false | false",
    "json                      | false | false",
  })
  void startsWhatTheNamedCommandWillAskFor(String args, boolean rules, boolean json) {
    Preload p = Preload.forArgs(args.split(" "));
    assertThat(p.started(true)).as("rules").isEqualTo(rules);
    assertThat(p.started(false)).as("json").isEqualTo(json);
  }
}
