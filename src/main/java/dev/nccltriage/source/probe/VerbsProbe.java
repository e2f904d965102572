package dev.nccltriage.source.probe;

import dev.nccltriage.facts.NaturalOrder;
import dev.nccltriage.facts.PodFacts;
import dev.nccltriage.host.CommandResult;
import dev.nccltriage.host.HostRoot;
import dev.nccltriage.source.probe.parse.LdconfigCache;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Step 2's user-space half: libibverbs.so.1 and the verbs providers in this image, looked up as
 * the dynamic loader and libibverbs would: the loader's cache ({@code ldconfig -p}), then the usual
 * library folders and their {@code libibverbs/} provider folders. Without them NCCL cannot load the
 * IB transport and falls back to sockets without an error. Nothing read means unknown, not absent.
 */
final class VerbsProbe {
  static final List<String> LIB_DIRS = List.of("/usr/lib/x86_64-linux-gnu", "/lib/x86_64-linux-gnu",
      "/usr/lib/aarch64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib64", "/lib64", "/usr/lib", "/lib",
      "/usr/local/lib", "/opt/mellanox/lib64");
  static final String LIBIBVERBS = "libibverbs.so.1";
  /** rdma-core's provider plugins (libmlx5-rdmav34.so), and MOFED's older ones (libmlx5-rdmav2.so). */
  private static final Pattern PLUGIN = Pattern.compile("^lib([a-z0-9_]+)-rdmav\\d+\\.so$");
  /** Providers that rdma-core also ships as a library of their own, their plugin a link to it. */
  private static final Pattern PUBLIC = Pattern.compile("^lib(mlx5|mlx4|efa|hns|mana)\\.so\\.\\d+$");
  /** An HCA's name to its provider, for the kernel drivers' default names (mlx5_0, efa_0, bnxt_re0). */
  private static final Pattern HCA = Pattern.compile("^(mlx5|mlx4|efa|bnxt_re|irdma|hns|qedr|rxe|siw|erdma|mana|ionic)_?\\d+$");

  private final HostRoot root;
  private final EvidenceBook book;

  VerbsProbe(HostRoot root, EvidenceBook book) {
    this.root = root;
    this.book = book;
  }

  PodFacts.Verbs probe(CommandResult ldconfig, PodFacts.Hcas hcas, String libraryPath) {
    String libibverbs = null;
    Map<String, String> providers = new LinkedHashMap<>();
    boolean known = false;
    String cacheSource = "ldconfig -p";
    // the loader searches LD_LIBRARY_PATH before its cache; only absolute folders are searched
    // (a relative one depends on the training process's working directory, which is not known)
    List<String> pathDirs = new ArrayList<>();
    if (libraryPath != null) {
      for (String d : libraryPath.split(":")) {
        if (d.startsWith("/") && !pathDirs.contains(d) && pathDirs.size() < 32) {
          pathDirs.add(d.replaceAll("/+$", "").isEmpty() ? "/" : d.replaceAll("/+$", ""));
        }
      }
    }
    List<String> dirsRead = new ArrayList<>();
    for (String dir : pathDirs) {
      if (root.isDirectory(dir)) {
        dirsRead.add(dir);
        libibverbs = search(dir, libibverbs, providers, "LD_LIBRARY_PATH ");
      }
    }
    if (ldconfig.ok()) {
      LdconfigCache.Result cache = LdconfigCache.parse(ldconfig.stdout());
      known = cache.recognised() && !ldconfig.truncated();
      for (LdconfigCache.Entry e : cache.entries()) {
        if (e.name().equals(LIBIBVERBS) && libibverbs == null) {
          libibverbs = e.path();
          book.add("pod.libibverbs", cacheSource, e.name() + " => " + e.path());
        }
        String provider = providerOf(e.name());
        if (provider != null && !providers.containsKey(provider)) {
          providers.put(provider, cacheSource + ": " + e.path());
        }
      }
    }
    for (String dir : LIB_DIRS) {
      if (!pathDirs.contains(dir) && root.isDirectory(dir)) {
        dirsRead.add(dir);
        libibverbs = search(dir, libibverbs, providers, "");
      }
    }
    // a truncated cache listing proves what it shows, not what it lacks
    known |= !dirsRead.isEmpty();
    List<String> names = providers.keySet().stream().sorted(NaturalOrder.INSTANCE).toList();
    providers.forEach((name, at) -> book.add("pod.verbsProviders", at, name + " provider"));
    if (!known) {
      String status = ldconfig.ok() ? "error" : ldconfig.status();
      return new PodFacts.Verbs(status, libibverbs, libibverbs == null && names.isEmpty() ? null : names, null,
          libraryPath);
    }
    // the claim first, then where it was looked for: a display cuts long lines at the end
    String source = ldconfig.ok() ? "ldconfig -p" : dirsRead.isEmpty() ? "ldconfig -p: " + ldconfig.status()
        : "library folders";
    String searched = (pathDirs.isEmpty() ? "" : "LD_LIBRARY_PATH, ")
        + (ldconfig.ok() ? "the loader cache" : "no loader cache (ldconfig -p: " + ldconfig.status() + ")")
        + (dirsRead.isEmpty() ? "" : ", " + String.join(", ", dirsRead));
    if (libibverbs == null) {
      book.add("pod.libibverbs", source, LIBIBVERBS + " not found; searched " + searched);
    }
    List<String> missing = needed(hcas).stream().filter(n -> !providers.containsKey(n)).toList();
    for (String n : missing) {
      book.add("pod.verbsProviders", source, "no " + n + " provider (lib" + n + "-rdmav*.so, lib" + n
          + ".so.1) for the " + n + " HCAs; searched " + searched + " and their libibverbs/");
    }
    return new PodFacts.Verbs("ok", libibverbs == null ? "absent" : libibverbs, names, missing, libraryPath);
  }

  /** One library folder: libibverbs.so.1 (unless found before), provider libraries and plugins. */
  private String search(String dir, String libibverbs, Map<String, String> providers, String how) {
    String found = libibverbs;
    String lib = dir + "/" + LIBIBVERBS;
    if (found == null && root.exists(lib)) {
      found = lib;
      book.add("pod.libibverbs", lib, how + "present");
    }
    for (String name : List.of("libmlx5.so.1", "libmlx4.so.1", "libefa.so.1", "libhns.so.1", "libmana.so.1")) {
      String provider = providerOf(name);
      if (!providers.containsKey(provider) && root.exists(dir + "/" + name)) {
        providers.put(provider, dir + "/" + name);
      }
    }
    String plugins = dir + "/libibverbs";
    for (String name : root.list(plugins)) {
      String provider = providerOf(name);
      if (provider != null && !providers.containsKey(provider)) {
        providers.put(provider, plugins + "/" + name);
      }
    }
    return found;
  }

  /** The provider a library file is, or null: libmlx5-rdmav34.so and libmlx5.so.1 are both mlx5. */
  static String providerOf(String file) {
    Matcher m = PLUGIN.matcher(file);
    if (m.matches()) {
      return m.group(1);
    }
    Matcher p = PUBLIC.matcher(file);
    return p.matches() ? p.group(1) : null;
  }

  /**
   * Providers the usable HCAs need: by the driver's default name (mlx5_0, efa_0), else, for an HCA
   * udev or the admin renamed (rdma0, mlx5_bond_0), by its PCI vendor (and, for Mellanox, device)
   * in sysfs. An HCA neither tells needs none we know: unknown, not missing.
   */
  private List<String> needed(PodFacts.Hcas hcas) {
    Set<String> out = new LinkedHashSet<>();
    for (String hca : hcas.usable()) {
      Matcher m = HCA.matcher(hca);
      if (m.matches()) {
        out.add(m.group(1));
        continue;
      }
      String dev = "/sys/class/infiniband/" + hca + "/device/";
      String vendor = firstLine(root.read(dev + "vendor"));
      String provider = providerOfPci(vendor, firstLine(root.read(dev + "device")));
      if (provider != null) {
        out.add(provider);
        book.add("pod.verbsProviders", dev + "vendor", hca + ": PCI vendor " + vendor + ", provider " + provider);
      }
    }
    return List.copyOf(out);
  }

  private static String firstLine(dev.nccltriage.host.FileRead f) {
    return f.ok() ? f.text().strip().lines().findFirst().orElse("").toLowerCase(java.util.Locale.ROOT) : "";
  }

  /** The verbs provider of a PCI function (vendor and device ids as sysfs prints them: 0x15b3). */
  static String providerOfPci(String vendor, String device) {
    return switch (vendor) {
      // ConnectX-3 (Pro) and their VFs are mlx4; every later Mellanox/NVIDIA NIC is mlx5
      case "0x15b3" -> List.of("0x1003", "0x1004", "0x1007").contains(device) ? "mlx4" : "mlx5";
      case "0x1d0f" -> "efa";
      case "0x14e4" -> "bnxt_re";
      case "0x8086" -> "irdma";
      case "0x19e5" -> "hns";
      case "0x1077" -> "qedr";
      case "0x1ded" -> "erdma";
      case "0x1414" -> "mana";
      default -> null;
    };
  }
}
