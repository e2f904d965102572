package dev.nccltriage.host;

import dev.nccltriage.evidence.Printable;
import dev.nccltriage.facts.NaturalOrder;
import dev.nccltriage.facts.PodFacts;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every file the ladder reads goes through here, relative to a root: "/" on a live host, a capture
 * folder on replay. Absolute paths in, results with a status out: a probe never sees an exception.
 */
public final class HostRoot {
  private static final int MAX_READ = 1 << 20;
  private static final int MAX_OPENS = 1 << 20;
  private final RootFiles files;
  private final Path root;
  private final boolean live;
  private final Map<String, String> recordedOpens;
  private final ReadListener listener;

  public HostRoot(Path root) {
    this(root, ReadListener.NONE);
  }

  public HostRoot(Path root, ReadListener listener) {
    this.listener = listener;
    this.files = new RootFiles(root);
    this.root = files.root();
    this.live = files.live();
    this.recordedOpens = live ? null : loadOpens(files.read("/" + CaptureLayout.OPENS, MAX_OPENS));
  }

  public Path root() {
    return root;
  }

  /** True on the host itself; false when replaying a capture. */
  public boolean live() {
    return live;
  }

  /**
   * Reads at most 1 MiB of a regular file. On replay a path whose symlinks lead out of the root
   * is an error, as is a FIFO or a device anywhere: opening one would block or never end.
   */
  public FileRead read(String absPath) {
    RootFiles.Bytes r = files.read(absPath, MAX_READ);
    if (!r.ok()) {
      return new FileRead(absPath, r.status(), null, r.detail());
    }
    listener.file(absPath, r.bytes());
    return new FileRead(absPath, "ok", new String(r.bytes(), StandardCharsets.UTF_8), null);
  }

  public boolean exists(String absPath) {
    boolean exists = files.exists(absPath);
    listener.exists(absPath, exists, exists && files.isDirectory(absPath));
    return exists;
  }

  public boolean isDirectory(String absPath) {
    boolean dir = files.isDirectory(absPath);
    listener.exists(absPath, dir || files.exists(absPath), dir);
    return dir;
  }

  /**
   * Names in a directory in natural order (mlx5_6 before mlx5_15), as people list HCAs and
   * interfaces; empty when it is missing, unreadable or outside the root.
   */
  public List<String> list(String absDir) {
    RootFiles.Located at = files.locate(absDir, true);
    if (at.refused() != null) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(at.path())) {
      ds.forEach(p -> out.add(p.getFileName().toString()));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    out.sort(NaturalOrder.INSTANCE);
    listener.dir(absDir, out);
    return out;
  }

  /** The link's text (it may point anywhere: it is only read); empty when its folder is outside the root. */
  public Optional<String> readLink(String absPath) {
    RootFiles.Located at = files.locate(absPath, false);
    if (at.refused() != null) {
      return Optional.empty();
    }
    try {
      String target = Files.readSymbolicLink(at.path()).toString();
      listener.link(absPath, target);
      return Optional.of(target);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether a device can be opened read-write, as libibverbs opens uverbs: {@code ok}, {@code
   * denied}, {@code missing} or {@code error: ...}. On replay the capture's recorded answer wins;
   * {@code unknown: ...} when the capture's opens.tsv does not say (or says something else).
   */
  public String tryOpen(String absPath) {
    String result = open(absPath);
    listener.open(absPath, result);
    return result;
  }

  private String open(String absPath) {
    if (!live && recordedOpens != null) {
      // a capture this tool made tried every device it listed: one it did not list was not tried
      String recorded = recordedOpens.get(absPath);
      if (recorded == null) {
        return !files.exists(absPath) ? "missing"
            : PodFacts.Devices.UNTRIED + "not in the capture's " + CaptureLayout.OPENS;
      }
      boolean known = recorded.equals("ok") || recorded.equals("denied") || recorded.equals("missing")
          || recorded.equals("error") || recorded.startsWith("error: ")
          || recorded.startsWith(PodFacts.Devices.UNTRIED); // a capture of a replay
      return known ? recorded
          : PodFacts.Devices.UNTRIED + CaptureLayout.OPENS + " says '" + Printable.line(recorded, 40) + "'";
    }
    if (!live) {
      // a capture made by hand (no opens.tsv): a device file that is there is taken as openable
      RootFiles.Located at = files.locate(absPath, true);
      if (at.refused() != null) {
        return "error: " + at.refused();
      }
      return files.exists(absPath) ? "ok" : "missing";
    }
    // on the host a uverbs device is a character device, opened on purpose
    try (FileChannel ch = FileChannel.open(files.locate(absPath, true).path(), StandardOpenOption.READ,
        StandardOpenOption.WRITE)) {
      return "ok";
    } catch (NoSuchFileException e) {
      return "missing";
    } catch (AccessDeniedException e) {
      return "denied";
    } catch (IOException | RuntimeException e) {
      return "error: " + IoProblems.describe(e);
    }
  }

  /** null when the capture has no opens.tsv; empty when it has one that cannot be read. */
  private static Map<String, String> loadOpens(RootFiles.Bytes opens) {
    if (opens.status().equals("missing")) {
      return null;
    }
    Map<String, String> m = new LinkedHashMap<>();
    if (!opens.ok()) {
      return m;
    }
    for (String line : new String(opens.bytes(), StandardCharsets.UTF_8).split("\n")) {
      int tab = line.indexOf('\t');
      if (tab > 0) {
        m.put(line.substring(0, tab), line.substring(tab + 1).strip());
      }
    }
    return m;
  }
}
