package dev.nccltriage.host;

import java.io.IOException;
import java.io.InputStream;
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
  private final Path root;
  private final boolean live;
  private final Map<String, String> recordedOpens;
  private final ReadListener listener;

  public HostRoot(Path root) {
    this(root, ReadListener.NONE);
  }

  public HostRoot(Path root, ReadListener listener) {
    this.listener = listener;
    this.root = root.toAbsolutePath().normalize();
    this.live = this.root.getParent() == null;
    this.recordedOpens = live ? Map.of() : loadOpens(this.root.resolve(CaptureLayout.OPENS));
  }

  public Path root() {
    return root;
  }

  /** True on the host itself; false when replaying a capture. */
  public boolean live() {
    return live;
  }

  public Path resolve(String absPath) {
    return root.resolve(absPath.startsWith("/") ? absPath.substring(1) : absPath);
  }

  public FileRead read(String absPath) {
    Path p = resolve(absPath);
    try (InputStream in = Files.newInputStream(p)) {
      byte[] b = in.readNBytes(MAX_READ);
      listener.file(absPath, b);
      return new FileRead(absPath, "ok", new String(b, StandardCharsets.UTF_8), null);
    } catch (NoSuchFileException e) {
      return new FileRead(absPath, "missing", null, null);
    } catch (AccessDeniedException e) {
      return new FileRead(absPath, "denied", null, "permission denied");
    } catch (IOException | RuntimeException e) {
      return new FileRead(absPath, "error", null, String.valueOf(e.getMessage()));
    }
  }

  public boolean exists(String absPath) {
    Path p = resolve(absPath);
    boolean exists = Files.exists(p);
    listener.exists(absPath, exists, exists && Files.isDirectory(p));
    return exists;
  }

  public boolean isDirectory(String absPath) {
    Path p = resolve(absPath);
    boolean dir = Files.isDirectory(p);
    listener.exists(absPath, dir || Files.exists(p), dir);
    return dir;
  }

  /** Names in a directory, sorted; empty when it is missing or unreadable. */
  public List<String> list(String absDir) {
    List<String> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(resolve(absDir))) {
      ds.forEach(p -> out.add(p.getFileName().toString()));
    } catch (IOException | RuntimeException e) {
      return List.of();
    }
    out.sort(null);
    listener.dir(absDir, out);
    return out;
  }

  public Optional<String> readLink(String absPath) {
    try {
      String target = Files.readSymbolicLink(resolve(absPath)).toString();
      listener.link(absPath, target);
      return Optional.of(target);
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return Optional.empty();
    }
  }

  /**
   * Whether a device can be opened read-write, as libibverbs opens uverbs: {@code ok}, {@code
   * denied}, {@code missing} or {@code error: ...}. On replay the capture's recorded answer wins.
   */
  public String tryOpen(String absPath) {
    String result = open(absPath);
    listener.open(absPath, result);
    return result;
  }

  private String open(String absPath) {
    if (!live) {
      String recorded = recordedOpens.get(absPath);
      if (recorded != null) {
        return recorded;
      }
      return Files.exists(resolve(absPath)) ? "ok" : "missing";
    }
    try (FileChannel ch = FileChannel.open(resolve(absPath), StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      return "ok";
    } catch (NoSuchFileException e) {
      return "missing";
    } catch (AccessDeniedException e) {
      return "denied";
    } catch (IOException | RuntimeException e) {
      return "error: " + e.getMessage();
    }
  }

  private static Map<String, String> loadOpens(Path file) {
    Map<String, String> m = new LinkedHashMap<>();
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        int tab = line.indexOf('\t');
        if (tab > 0) {
          m.put(line.substring(0, tab), line.substring(tab + 1).strip());
        }
      }
    } catch (IOException e) {
      return Map.of();
    }
    return m;
  }
}
