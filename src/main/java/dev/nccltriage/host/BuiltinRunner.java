package dev.nccltriage.host;

import java.net.InetAddress;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Answers the built-in pseudo-command {@code nccl-triage-builtin interfaces} from Java's own
 * interface list, in `ip addr` text form, so a container without iproute2 still gets step 4, and a
 * capture records it like any other command. Every other argv goes to the delegate.
 */
public final class BuiltinRunner implements CommandRunner {
  public static final List<String> INTERFACES = List.of("nccl-triage-builtin", "interfaces");
  private final CommandRunner delegate;

  public BuiltinRunner(CommandRunner delegate) {
    this.delegate = delegate;
  }

  @Override
  public CommandResult run(List<String> argv) {
    if (!argv.equals(INTERFACES)) {
      return delegate.run(argv);
    }
    try {
      return new CommandResult(argv, "ok", 0, interfaces(), "", 0, 0, false);
    } catch (SocketException | RuntimeException e) {
      return new CommandResult(argv, "error", -1, "", String.valueOf(e.getMessage()), 0, 0, false);
    }
  }

  private static String interfaces() throws SocketException {
    StringBuilder sb = new StringBuilder();
    List<NetworkInterface> all = Collections.list(NetworkInterface.getNetworkInterfaces());
    all.sort((a, b) -> Integer.compare(a.getIndex(), b.getIndex()));
    for (NetworkInterface ni : all) {
      List<String> flags = new ArrayList<>();
      if (ni.isLoopback()) {
        flags.add("LOOPBACK");
      }
      if (ni.isUp()) {
        flags.add("UP");
      }
      sb.append(ni.getIndex()).append(": ").append(ni.getName()).append(": <").append(String.join(",", flags))
          .append("> mtu ").append(ni.getMTU()).append(" state ").append(ni.isUp() ? "UP" : "DOWN").append('\n');
      byte[] mac = ni.getHardwareAddress();
      if (ni.isLoopback()) {
        sb.append("    link/loopback 00:00:00:00:00:00\n");
      } else if (mac != null) {
        List<String> parts = new ArrayList<>();
        for (byte b : mac) {
          parts.add(String.format("%02x", b));
        }
        sb.append("    link/").append(mac.length == 20 ? "infiniband " : "ether ").append(String.join(":", parts)).append('\n');
      }
      for (InterfaceAddress a : ni.getInterfaceAddresses()) {
        InetAddress addr = a.getAddress();
        String family = addr instanceof java.net.Inet6Address ? "inet6" : "inet";
        // as ip prints it (RFC 5952, inet_ntop): Java's own text is uncompressed ("0:0:0:0:0:0:0:1")
        String text = addr instanceof java.net.Inet6Address ? Ipv6.compressed(addr.getAddress(), true)
            : addr.getHostAddress();
        sb.append("    ").append(family).append(' ').append(text).append('/').append(a.getNetworkPrefixLength())
            .append(" scope ").append(addr.isLinkLocalAddress() ? "link" : addr.isLoopbackAddress() ? "host" : "global")
            .append(' ').append(ni.getName()).append('\n');
      }
    }
    return sb.toString();
  }
}
