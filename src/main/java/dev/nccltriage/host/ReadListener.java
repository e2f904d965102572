package dev.nccltriage.host;

import java.util.List;

/** Hears every read the ladder makes through a {@link HostRoot}; a capture writer records them. */
public interface ReadListener {
  ReadListener NONE = new ReadListener() {};

  default void file(String absPath, byte[] content) {}

  default void dir(String absPath, List<String> names) {}

  default void open(String absPath, String result) {}

  default void link(String absPath, String target) {}

  /**
   * An existence check ({@link HostRoot#exists}, {@link HostRoot#isDirectory}): probes that only
   * test presence (peermem's sysfs folder) need it recorded too, or a replay would answer "absent".
   */
  default void exists(String absPath, boolean exists, boolean directory) {}
}
