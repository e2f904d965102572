package dev.nccltriage.host;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Which paths a {@link CaptureWriter} may record, as components relative to the capture: none that
 * escapes the root with {@code ..}, none inside the capture itself (when it lies under the root
 * being read), and of the capture's own {@code .nccl-triage/} paths only a file read of its env.
 */
final class CaptureScope {
  private final List<List<String>> self = new ArrayList<>();
  private final Consumer<String> problem;

  /**
   * {@code capture} is the real path of {@code captureDir}, {@code sourceRoot} the {@link
   * HostRoot}'s root; a path refused for any reason but lying inside the capture is reported to
   * {@code problem}.
   */
  CaptureScope(Path captureDir, Path capture, Path sourceRoot, Consumer<String> problem) {
    this.problem = problem;
    Set<Path> captureForms = new LinkedHashSet<>(List.of(captureDir.toAbsolutePath().normalize(), capture));
    Set<Path> rootForms = new LinkedHashSet<>();
    rootForms.add(sourceRoot.toAbsolutePath().normalize());
    try {
      rootForms.add(sourceRoot.toRealPath());
    } catch (IOException e) {
      // a root that does not exist yet has only its given form
    }
    for (Path r : rootForms) {
      for (Path c : captureForms) {
        if (c.startsWith(r)) {
          List<String> comps = new ArrayList<>();
          r.relativize(c).forEach(p -> {
            if (!p.toString().isEmpty()) {
              comps.add(p.toString());
            }
          });
          self.add(comps);
        }
      }
    }
  }

  /** The path's components, or null (and a problem noted) when it must not be recorded. */
  List<String> accept(String what, String absPath) {
    if (absPath == null) {
      return null;
    }
    List<String> comps = components(absPath);
    if (comps == null) {
      problem.accept(what + " " + absPath + ": refused, escapes the root with ..");
      return null;
    }
    if (isSelf(comps)) {
      return null;
    }
    if (!comps.isEmpty() && comps.get(0).equals(CaptureLayout.META_DIR)
        && !(what.equals("file") && String.join("/", comps).equals(CaptureLayout.ENV))) {
      problem.accept(what + " " + absPath + ": refused, the capture's own metadata path");
      return null;
    }
    return comps;
  }

  boolean isSelf(List<String> comps) {
    for (List<String> s : self) {
      if (comps.size() >= s.size() && comps.subList(0, s.size()).equals(s)) {
        return true;
      }
    }
    return false;
  }

  /** "/a/./b//c/../d" to [a, b, d]; null when ".." climbs above the root or a NUL is in it. */
  static List<String> components(String absPath) {
    List<String> out = new ArrayList<>();
    for (String part : absPath.split("/")) {
      if (part.isEmpty() || part.equals(".")) {
        continue;
      }
      if (part.indexOf('\0') >= 0) {
        return null;
      }
      if (part.equals("..")) {
        if (out.isEmpty()) {
          return null;
        }
        out.remove(out.size() - 1);
      } else {
        out.add(part);
      }
    }
    return out;
  }
}
