package dev.nccltriage.host;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Ends one probe and everything it started. A probe may ignore SIGTERM, and its children may have
 * been re-parented (a double fork, a parent killed first) out of {@link Process#descendants()};
 * each probe therefore runs with a unique environment variable that its whole tree inherits, and
 * the kill also takes every process whose {@code /proc/PID/environ} carries it. SIGTERM first,
 * SIGKILL to whatever is left after the grace.
 */
final class ProcessTree {
  /** The variable every probe's tree inherits; its value is unique to one probe run. */
  static final String MARKER = "NCCL_TRIAGE_PROBE_TREE";

  private ProcessTree() {}

  static void kill(Process p, String markerValue, Duration grace) {
    Set<ProcessHandle> tree = members(p, markerValue);
    tree.forEach(ProcessHandle::destroy);
    awaitExit(tree, grace);
    // children started during the grace, and members re-parented since the first look
    tree.addAll(members(p, markerValue));
    tree.stream().filter(ProcessTree::running).forEach(ProcessHandle::destroyForcibly);
    awaitExit(tree, grace);
  }

  /**
   * Ends what a probe that has exited left running (a daemon it forked). The JDK closes a dead
   * child's output pipes itself, so a grandchild holding them does not hold the run, and only the
   * marker finds it.
   */
  static void killLeftovers(String markerValue, Duration grace) {
    Set<ProcessHandle> left = carriers(markerValue);
    if (left.isEmpty()) {
      return;
    }
    left.forEach(ProcessHandle::destroy);
    awaitExit(left, grace);
    left.addAll(carriers(markerValue));
    left.stream().filter(ProcessTree::running).forEach(ProcessHandle::destroyForcibly);
    awaitExit(left, grace);
  }

  /** The process, its descendants now, and every live process carrying the marker. */
  private static Set<ProcessHandle> members(Process p, String markerValue) {
    Set<ProcessHandle> tree = new LinkedHashSet<>();
    tree.add(p.toHandle());
    p.descendants().forEach(tree::add);
    tree.addAll(carriers(markerValue));
    return tree;
  }

  /** Every running process (not this one) whose environment carries the marker. */
  private static Set<ProcessHandle> carriers(String markerValue) {
    byte[] needle = (MARKER + "=" + markerValue + "\0").getBytes(StandardCharsets.US_ASCII);
    long self = ProcessHandle.current().pid();
    Set<ProcessHandle> found = new LinkedHashSet<>();
    ProcessHandle.allProcesses()
        .filter(h -> h.pid() != self && running(h) && carries(h.pid(), needle))
        .forEach(found::add);
    return found;
  }

  /** Whether the process's environment holds the marker; unreadable (another user, gone, no /proc) is no. */
  private static boolean carries(long pid, byte[] needle) {
    byte[] env;
    try {
      env = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ"));
    } catch (IOException | RuntimeException e) {
      return false;
    }
    outer:
    for (int i = 0; i + needle.length <= env.length; i++) {
      if (i > 0 && env[i - 1] != 0) {
        continue; // only at the start of a NAME=value entry
      }
      for (int j = 0; j < needle.length; j++) {
        if (env[i + j] != needle[j]) {
          continue outer;
        }
      }
      return true;
    }
    return false;
  }

  /**
   * Polls rather than waiting on {@link ProcessHandle#onExit}: for a process that is not our child
   * the JDK polls from 300 ms up, a whole grace. A zombie is dead: where PID 1 does not reap
   * (some containers), a killed orphan stays one.
   */
  private static void awaitExit(Set<ProcessHandle> tree, Duration grace) {
    long end = System.nanoTime() + grace.toNanos();
    while (tree.stream().anyMatch(ProcessTree::running)) {
      if (System.nanoTime() - end >= 0) {
        return; // what is still alive gets SIGKILL, or is past helping (uninterruptible sleep)
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  static boolean running(ProcessHandle h) {
    if (!h.isAlive()) {
      return false;
    }
    try {
      String stat = Files.readString(Path.of("/proc", Long.toString(h.pid()), "stat"), StandardCharsets.US_ASCII);
      int paren = stat.lastIndexOf(')'); // the name may hold spaces and parentheses
      char state = paren > 0 && paren + 2 < stat.length() ? stat.charAt(paren + 2) : '?';
      return state != 'Z' && state != 'X';
    } catch (IOException | RuntimeException e) {
      return h.isAlive();
    }
  }
}
