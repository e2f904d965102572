package dev.nccltriage.rules;

import java.util.Arrays;
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
    return Arrays.stream(values()).filter(l -> l.id.equals(id)).findFirst();
  }
}
