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

  PodFacts.Verbs probe(CommandResult ldconfig, PodFacts.Hcas hcas) {
    String libibverbs = null;
    Map<String, String> providers = new LinkedHashMap<>();
    boolean known = false;
    String cacheSource = "ldconfig -p";
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
    List<String> dirsRead = new ArrayList<>();
    for (String dir : LIB_DIRS) {
      if (!root.isDirectory(dir)) {
        continue;
      }
      dirsRead.add(dir);
      String lib = dir + "/" + LIBIBVERBS;
      if (libibverbs == null && root.exists(lib)) {
        libibverbs = lib;
        book.add("pod.libibverbs", lib, "present");
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
    }
    // a truncated cache listing proves what it shows, not what it lacks
    known |= !dirsRead.isEmpty();
    List<String> names = providers.keySet().stream().sorted(NaturalOrder.INSTANCE).toList();
    providers.forEach((name, at) -> book.add("pod.verbsProviders", at, name + " provider"));
    if (!known) {
      String status = ldconfig.ok() ? "error" : ldconfig.status();
      return new PodFacts.Verbs(status, libibverbs, libibverbs == null && names.isEmpty() ? null : names, null);
    }
    // the claim first, then where it was looked for: a display cuts long lines at the end
    String source = ldconfig.ok() ? "ldconfig -p" : dirsRead.isEmpty() ? "ldconfig -p: " + ldconfig.status()
        : "library folders";
    String searched = (ldconfig.ok() ? "the loader cache" : "no loader cache (ldconfig -p: " + ldconfig.status() + ")")
        + (dirsRead.isEmpty() ? "" : ", " + String.join(", ", dirsRead));
    if (libibverbs == null) {
      book.add("pod.libibverbs", source, LIBIBVERBS + " not found; searched " + searched);
    }
    List<String> missing = needed(hcas).stream().filter(n -> !providers.containsKey(n)).toList();
    for (String n : missing) {
      book.add("pod.verbsProviders", source, "no " + n + " provider (lib" + n + "-rdmav*.so, lib" + n
          + ".so.1) for the " + n + " HCAs; searched " + searched + " and their libibverbs/");
    }
    return new PodFacts.Verbs("ok", libibverbs == null ? "absent" : libibverbs, names, missing);
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

  /** Providers the usable HCAs need, by their drivers' default names; a renamed HCA needs none we know. */
  private static List<String> needed(PodFacts.Hcas hcas) {
    Set<String> out = new LinkedHashSet<>();
    for (String hca : hcas.usable()) {
      Matcher m = HCA.matcher(hca);
      if (m.matches()) {
        out.add(m.group(1));
      }
    }
    return List.copyOf(out);
  }
}
