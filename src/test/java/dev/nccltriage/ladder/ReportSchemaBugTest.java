package dev.nccltriage.ladder;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nccltriage.cli.CliRun;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The JSON of check and preflight against {@code schema/report-v1.schema.json}, with nothing
 * filtered (the other ladder tests drop the two known errors, see {@link
 * Captures#schemaErrors}).
 */
class ReportSchemaBugTest {
  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "check --root samples/captures/healthy-8hca-gdr-net1 -o json",
        "check --root samples/captures/partial-2of8-hcas -o json",
        "preflight --root samples/captures/healthy-8hca-gdr-net1 --expect-hcas 8",
        "check --root samples/captures/no-dev-infiniband -o json"
            + " --log samples/logs/02-socket-no-device-k8s-2.19.3.log",
        "check -o json"
      })
  void checkAndPreflightReportsFollowTheSchema(String args) {
    CliRun run = CliRun.run(args.split(" "));
    assertThat(run.exitCode()).as(run.toString()).isIn(0, 1, 3);
    assertThat(Captures.strictSchemaErrors(run.json())).as(args).isEmpty();
  }
}
