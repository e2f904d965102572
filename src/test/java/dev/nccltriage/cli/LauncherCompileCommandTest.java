package dev.nccltriage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The methods the launchers name in -XX:CompileCommand exist: a renamed method would leave the
 * command matching nothing, and the JVM says nothing about a pattern that matches nothing.
 * And every such command comes after "quiet", else the JVM prints it on stdout, before the JSON.
 */
class LauncherCompileCommandTest {
  private static final Pattern COMMAND = Pattern.compile("-XX:CompileCommand=(\\w+)(?:,([\\w.$]+)::(\\w+))?");

  @ParameterizedTest
  @ValueSource(strings = {"dist/bin/nccl-triage", "dist/bundle/nccl-triage"})
  void namedMethodsExistAndTheCommandsAreQuiet(String launcher) throws Exception {
    String script = Files.readString(CliRun.REPO.resolve(launcher), StandardCharsets.UTF_8);
    Matcher m = COMMAND.matcher(script);
    List<String> named = new ArrayList<>();
    boolean quiet = false;
    while (m.find()) {
      if (m.group(1).equals("quiet")) {
        quiet = true;
        continue;
      }
      assertThat(quiet).as("%s: %s before -XX:CompileCommand=quiet", launcher, m.group()).isTrue();
      Class<?> c = Class.forName(m.group(2));
      String name = m.group(3);
      assertThat(Arrays.stream(c.getDeclaredMethods()).map(Method::getName)).as(m.group()).contains(name);
      named.add(c.getSimpleName() + "::" + name);
    }
    assertThat(named).as("the reader's loop is named").contains("LineReader::read");
  }
}
