package dev.nccltriage.rules;

import java.util.Optional;

/** The layers a verdict can name (DESIGN.md). */
public enum Layer {
  NONE("none"),
  POD_NETWORK("pod-network"),
  DEVICE_PLUGIN("device-plugin"),
  CONTAINER_SECURITY("container-security"),
  NCCL_ENV("nccl-env"),
  NODE_DRIVER("node-driver"),
  TOPOLOGY("topology"),
  FABRIC("fabric"),
  UNKNOWN("unknown");

  private final String id;

  Layer(String id) {
    this.id = id;
  }

  public String id() {
    return id;
  }

  public static Optional<Layer> of(String id) {
    for (Layer l : values()) {
      if (l.id.equals(id)) {
        return Optional.of(l);
      }
    }
    return Optional.empty();
  }
}
