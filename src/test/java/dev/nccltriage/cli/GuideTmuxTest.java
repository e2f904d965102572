package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Runs the real CLI in a tmux pane, types answers (with Tab completion) and reads the screen. */
class GuideTmuxTest {
  private static final Path TMUX = Path.of("/usr/bin/tmux");
  private final String socket = "nccl-triage-test-" + ProcessHandle.current().pid();
  private final String session = "guide";

  private String tmux(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(TMUX.toString(), "-L", socket));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
    pb.environment().remove("TMUX");
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    return out;
  }

  private String waitFor(String text) throws Exception {
    String screen = "";
    for (int i = 0; i < 300; i++) {
      screen = tmux("capture-pane", "-p", "-S", "-500", "-t", session);
      if (screen.contains(text)) {
        return screen;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no '" + text + "' on the screen:\n" + screen);
  }

  @Test
  void walksFromTheFirstQuestionToAVerdictInARealTerminal() throws Exception {
    assumeTrue(Files.isExecutable(TMUX), "tmux is not installed");
    String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cmd = "cd '" + CliRun.REPO + "' && '" + java + "' -cp '" + cp + "' dev.nccltriage.cli.Main guide;"
        + " echo EXIT=$?; sleep 60";
    tmux("new-session", "-d", "-s", session, "-x", "120", "-y", "40", cmd);
    try {
      waitFor("Is /dev/infiniband empty in the Pod?");
      tmux("send-keys", "-t", session, "n", "Tab", "Enter"); // Tab completes "n" to "no"
      waitFor("Does the NCCL log say `Using network Socket`");
      tmux("send-keys", "-t", session, "ye", "Tab", "Enter");
      waitFor("Does the job run on more than one node?");
      tmux("send-keys", "-t", session, "yes", "Enter");
      waitFor("Max locked memory");
      tmux("send-keys", "-t", session, "unl", "Tab", "Enter");
      waitFor("Is CAP_IPC_LOCK set");
      tmux("send-keys", "-t", session, "yes", "Enter");
      String screen = waitFor("EXIT=");
      assertThat(screen).contains("path: Q1-transport=no")
          .contains("Max locked memory (ulimit -l, e.g. unlimited, 64K, 8M)? [size/unknown] unlimited")
          .contains("nccl-triage guide: PROBLEM  layer: device-plugin")
          .contains("EXIT=1");
    } finally {
      tmux("kill-server");
    }
  }
}
