package dev.nccltriage.source.log;

import dev.nccltriage.facts.InputStats;
import dev.nccltriage.facts.LogFacts;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges the parsed units of a job's inputs, in order: a unit continues its input (lines numbered
 * on from the input's lines so far); a unit of the next input closes the previous one, which joins
 * the job and is dropped, so memory holds one input's parts at a time, not every input's.
 */
final class InputsMerge {
  private final List<String> names;
  private final List<InputStats> stats = new ArrayList<>();
  private LogAccumulator job;
  private LogAccumulator input; // the input being merged, null before the first unit
  private int current = -1;

  InputsMerge(List<String> names) {
    this.names = names;
  }

  /** The next unit's result; {@code number} is the input it belongs to (0 for the first). */
  void add(int number, LogAccumulator acc) {
    if (number != current) {
      close();
      current = number;
      input = acc; // the first unit is the input so far: no copy of its processes
    } else {
      input.merge(acc, input.lines);
    }
  }

  private void close() {
    if (input == null) {
      return;
    }
    stats.add(new InputStats(names.get(current), input.lines, input.ncclLines, input.unplaced, input.truncated));
    if (job == null) {
      job = input; // the first input is the job so far
    } else {
      // another file's lines: the NCCL lines of the one before say nothing of them
      input.wrappedReports.startsInput();
      job.merge(input, 0);
    }
    input = null;
  }

  LogFacts facts() {
    close();
    LogAccumulator all = job == null ? new LogAccumulator() : job;
    all.wrappedReports.resolve(all.wrapperShapes, all.failures, all.frameworkFailures);
    return new FactsBuilder(all, stats).build();
  }
}
