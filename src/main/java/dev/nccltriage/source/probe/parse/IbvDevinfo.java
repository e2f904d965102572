package dev.nccltriage.source.probe.parse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses {@code ibv_devinfo}, {@code ibv_devinfo -v} and {@code ibv_devinfo -l} output, plus the
 * libibverbs messages printed instead of (or before) it (probe-formats.md §2). Tolerates spaces
 * instead of TABs, flattened indentation, a prompt line, markdown residue, the MLNX_OFED
 * {@code Device ports:} line, fragments that start inside a device (the device then has a null
 * name), and the very old format without {@code link_layer}.
 */
public final class IbvDevinfo {

  /** Kinds of the messages that libibverbs/ibv_devinfo print instead of devices. */
  public enum MessageKind {
    /** {@code No IB devices found}. */
    NO_DEVICES_FOUND,
    /** {@code Failed to get IB devices list: <strerror>}. */
    GET_DEVICE_LIST_FAILED,
    /** {@code libibverbs: Warning: no userspace device-specific driver found for ...}. */
    NO_USERSPACE_DRIVER,
    /** {@code libibverbs: Warning: couldn't open config directory '...'}. */
    CONFIG_DIR_UNREADABLE,
    /** {@code Failed to open device}. */
    OPEN_DEVICE_FAILED,
    /** {@code IB device '<x>' wasn't found}. */
    DEVICE_NOT_FOUND,
    /** {@code Failed to query ...} / {@code Invalid port requested for device}. */
    QUERY_FAILED,
    /** Any other {@code libibverbs:} line (e.g. {@code couldn't load driver}). */
    LIBIBVERBS_WARNING
  }

  /** One message line, trimmed, starting at the message (a prompt before it is dropped). */
  public record Message(MessageKind kind, String text) {}

  /** A {@code GID[  i]:} line of {@code -v}; {@code type} is e.g. {@code RoCE v2}, or null. */
  public record Gid(int index, String gid, String type) {}

  /**
   * One {@code port:} block. {@code state} is the word ({@code PORT_ACTIVE}), {@code stateNum}
   * the number in parentheses; MTUs are in bytes; {@code linkLayer} is null when the line is
   * absent (old libibverbs). {@code physState}/{@code activeWidth}/{@code activeSpeed} come from
   * {@code -v} only. {@code other} keeps every other key of the block verbatim, in order.
   * {@code port} is null when its number does not fit an int: the block is kept, its port unknown.
   */
  public record Port(
      Integer port,
      String state,
      Integer stateNum,
      Integer maxMtu,
      Integer activeMtu,
      Integer smLid,
      Integer portLid,
      String linkLayer,
      String physState,
      Integer physStateNum,
      String activeWidth,
      String activeSpeed,
      List<Gid> gids,
      Map<String, String> other) {
    public Port {
      gids = List.copyOf(gids);
      other = Collections.unmodifiableMap(new LinkedHashMap<>(other));
    }
  }

  /**
   * One {@code hca_id:} block. {@code name} is null for a fragment that starts after the
   * {@code hca_id} line. {@code transport} is the word without the number ({@code InfiniBand}).
   * {@code vendorId} is the parsed hex value (0x02c9 → 713). {@code other} keeps every other
   * device-level key verbatim.
   */
  public record Device(
      String name,
      String transport,
      String fwVer,
      String nodeGuid,
      String sysImageGuid,
      Integer vendorId,
      Integer vendorPartId,
      String hwVer,
      String boardId,
      Integer physPortCnt,
      List<Port> ports,
      Map<String, String> other) {
    public Device {
      ports = List.copyOf(ports);
      other = Collections.unmodifiableMap(new LinkedHashMap<>(other));
    }
  }

  /**
   * Everything found. {@code listedCount}/{@code listedNames} come from {@code -l}
   * ({@code N HCAs found:}); listedCount is null when no such line was seen.
   */
  public record Result(
      List<Device> devices, Integer listedCount, List<String> listedNames, List<Message> messages) {
    public Result {
      devices = List.copyOf(devices);
      listedNames = List.copyOf(listedNames);
      messages = List.copyOf(messages);
    }

    /** True when a message of this kind was printed. */
    public boolean has(MessageKind kind) {
      return messages.stream().anyMatch(m -> m.kind() == kind);
    }

    /** All ports of all devices, in order. */
    public List<Port> allPorts() {
      List<Port> out = new ArrayList<>();
      devices.forEach(d -> out.addAll(d.ports()));
      return List.copyOf(out);
    }

    /** True when nothing at all was recognised. */
    public boolean isEmpty() {
      return devices.isEmpty() && listedCount == null && listedNames.isEmpty()
          && messages.isEmpty();
    }
  }

  private static final Pattern NUM_SUFFIX = Pattern.compile("^(.*?)\\s*\\((-?\\d+)\\)$");
  private static final Pattern GID_KEY = Pattern.compile("^GID\\[\\s*(\\d+)\\s*\\]$");
  private static final Pattern HCAS_FOUND = Pattern.compile("(?<!\\d)(\\d++)\\s+HCAs?\\s+found:?"); // from a digit run's start: linear
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]+");

  private IbvDevinfo() {}

  /** Parses the text; never throws, never returns null. */
  public static Result parse(String text) {
    State s = new State();
    try {
      for (String raw : Text.lines(text)) {
        s.line(raw);
      }
    } catch (RuntimeException e) {
      Text.parserBug(e); // a run goes on with what was parsed so far
    }
    return s.result();
  }

  private static final class PortB {
    Integer port;
    String state;
    Integer stateNum;
    Integer maxMtu;
    Integer activeMtu;
    Integer smLid;
    Integer portLid;
    String linkLayer;
    String physState;
    Integer physStateNum;
    String activeWidth;
    String activeSpeed;
    final List<Gid> gids = new ArrayList<>();
    final Map<String, String> other = new LinkedHashMap<>();

    Port build() {
      return new Port(port, state, stateNum, maxMtu, activeMtu, smLid, portLid, linkLayer,
          physState, physStateNum, activeWidth, activeSpeed, gids, other);
    }
  }

  private static final class DevB {
    String name;
    String transport;
    String fwVer;
    String nodeGuid;
    String sysImageGuid;
    Integer vendorId;
    Integer vendorPartId;
    String hwVer;
    String boardId;
    Integer physPortCnt;
    final List<PortB> ports = new ArrayList<>();
    final Map<String, String> other = new LinkedHashMap<>();

    Device build() {
      List<Port> ps = new ArrayList<>();
      ports.forEach(p -> ps.add(p.build()));
      return new Device(name, transport, fwVer, nodeGuid, sysImageGuid, vendorId, vendorPartId,
          hwVer, boardId, physPortCnt, ps, other);
    }
  }

  private static final class State {
    final List<DevB> devices = new ArrayList<>();
    final List<Message> messages = new ArrayList<>();
    final List<String> listed = new ArrayList<>();
    Integer listedCount;
    boolean inList;
    DevB dev;
    PortB port;

    void line(String raw) {
      if (Text.isFence(raw)) {
        return;
      }
      String line = Text.clean(raw);
      if (line.isEmpty()) {
        inList = false;
        return;
      }
      if (Text.isPasteSeparator(line)) {
        inList = false;
        return;
      }
      if (message(line)) {
        return;
      }
      Matcher hf = HCAS_FOUND.matcher(line);
      if (hf.find() && !line.contains("hca_id")) {
        listedCount = Text.toInt(hf.group(1));
        inList = true;
        return;
      }
      int h = line.indexOf("hca_id:");
      if (h > 0) {
        line = line.substring(h); // prompt on the same line
      }
      int colon = line.indexOf(':');
      if (colon < 0) {
        if (inList && NAME.matcher(line).matches()) {
          listed.add(line);
        }
        return; // -v flag continuation lines, prose
      }
      inList = false;
      String key = Text.clean(line.substring(0, colon));
      String value = line.substring(colon + 1).trim();
      keyValue(key, value);
    }

    boolean message(String line) {
      MessageKind kind = null;
      int at = -1;
      String[][] phrases = {
        {"No IB devices found", "NO_DEVICES_FOUND"},
        {"Failed to get IB devices list", "GET_DEVICE_LIST_FAILED"},
        {"no userspace device-specific driver found", "NO_USERSPACE_DRIVER"},
        {"couldn't open config directory", "CONFIG_DIR_UNREADABLE"},
        {"Failed to open device", "OPEN_DEVICE_FAILED"},
        {"wasn't found", "DEVICE_NOT_FOUND"},
        {"Failed to query", "QUERY_FAILED"},
        {"Invalid port requested", "QUERY_FAILED"},
      };
      for (String[] p : phrases) {
        int i = line.indexOf(p[0]);
        if (i >= 0) {
          kind = MessageKind.valueOf(p[1]);
          at = i;
          break;
        }
      }
      if (kind == MessageKind.DEVICE_NOT_FOUND) {
        int d = line.indexOf("IB device '");
        if (d < 0) {
          return false;
        }
        at = d;
      }
      int lib = line.indexOf("libibverbs:");
      if (kind == null && lib >= 0) {
        kind = MessageKind.LIBIBVERBS_WARNING;
      }
      if (kind == null) {
        return false;
      }
      if (lib >= 0 && lib < at || at < 0) {
        at = lib;
      }
      messages.add(new Message(kind, line.substring(Math.max(0, at)).trim()));
      return true;
    }

    DevB device() {
      if (dev == null) {
        dev = new DevB();
        devices.add(dev);
      }
      return dev;
    }

    void keyValue(String key, String value) {
      String k = key.toLowerCase(Locale.ROOT);
      switch (k) {
        case "hca_id" -> {
          dev = new DevB();
          dev.name = value.isEmpty() ? null : Text.tokens(value)[0];
          devices.add(dev);
          port = null;
          return;
        }
        case "port" -> {
          Integer n = Text.toInt(value);
          String v = value.strip();
          if (n != null || !v.isEmpty() && v.chars().allMatch(c -> c >= '0' && c <= '9')) {
            port = new PortB();
            port.port = n; // null when it does not fit an int: the port is kept, its number unknown
            device().ports.add(port);
          }
          return;
        }
        case "device ports" -> {
          return;
        }
        default -> { }
      }
      if (deviceKey(k, value)) {
        return;
      }
      Matcher g = GID_KEY.matcher(key);
      if (g.matches()) {
        Integer idx = Text.toInt(g.group(1));
        if (port != null && idx != null) {
          int comma = value.indexOf(',');
          String gid = (comma < 0 ? value : value.substring(0, comma)).trim();
          String type = comma < 0 ? null : value.substring(comma + 1).trim();
          port.gids.add(new Gid(idx, gid, type == null || type.isEmpty() ? null : type));
        }
        return;
      }
      if (port != null) {
        portKey(k, key, value);
      } else if (dev != null || isDeviceLevelName(k)) {
        if (looksLikeKey(key)) {
          device().other.put(key, value);
        }
      }
    }

    boolean deviceKey(String k, String value) {
      switch (k) {
        case "transport" -> device().transport = word(value);
        case "fw_ver" -> device().fwVer = value;
        case "node_guid" -> device().nodeGuid = value;
        case "sys_image_guid" -> device().sysImageGuid = value;
        case "vendor_id" -> device().vendorId = Text.toIntAnyBase(value);
        case "vendor_part_id" -> device().vendorPartId = Text.toIntAnyBase(value);
        case "hw_ver" -> device().hwVer = value;
        case "board_id" -> device().boardId = value;
        case "phys_port_cnt" -> device().physPortCnt = Text.toInt(value);
        default -> {
          return false;
        }
      }
      return true;
    }

    void portKey(String k, String key, String value) {
      switch (k) {
        case "state" -> {
          port.state = word(value);
          port.stateNum = num(value);
        }
        case "max_mtu" -> port.maxMtu = Text.toInt(word(value));
        case "active_mtu" -> port.activeMtu = Text.toInt(word(value));
        case "sm_lid" -> port.smLid = Text.toIntAnyBase(value);
        case "port_lid" -> port.portLid = Text.toIntAnyBase(value);
        case "link_layer" -> port.linkLayer = value.isEmpty() ? null : value;
        case "phys_state" -> {
          port.physState = word(value);
          port.physStateNum = num(value);
        }
        case "active_width" -> port.activeWidth = word(value);
        case "active_speed" -> port.activeSpeed = word(value);
        default -> {
          if (looksLikeKey(key)) {
            port.other.put(key, value);
          }
        }
      }
    }

    static boolean looksLikeKey(String key) {
      return !key.isEmpty() && key.indexOf(' ') < 0 && key.indexOf('@') < 0;
    }

    static boolean isDeviceLevelName(String k) {
      return k.startsWith("max_") || k.startsWith("num_") || k.endsWith("_cap")
          || k.endsWith("_caps") || k.contains("cap_flags") || k.startsWith("local_ca")
          || k.startsWith("page_size") || k.startsWith("atomic");
    }

    /** "PORT_ACTIVE (4)" → "PORT_ACTIVE"; "4096 (5)" → "4096". */
    static String word(String v) {
      Matcher m = NUM_SUFFIX.matcher(v);
      String w = m.matches() ? m.group(1).trim() : v.trim();
      return w.isEmpty() ? null : w;
    }

    static Integer num(String v) {
      Matcher m = NUM_SUFFIX.matcher(v);
      return m.matches() ? Text.toInt(m.group(2)) : null;
    }

    Result result() {
      List<Device> ds = new ArrayList<>();
      for (DevB d : devices) {
        ds.add(d.build());
      }
      return new Result(ds, listedCount, listed, messages);
    }
  }
}
