package dev.nccltriage.build;

import dev.nccltriage.cli.Context;
import dev.nccltriage.cli.NcclTriage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Build-time helper of the self-contained bundle (dist/bundle/build-bundle.sh runs it with the build
 * JDK; it is not part of the shipped application):
 *
 * <pre>
 *   docs OUTDIR VERSION   writes OUTDIR/share/man/man1/nccl-triage*.1 (roff, one page per command)
 *                         and OUTDIR/share/bash-completion/completions/nccl-triage (bash and zsh),
 *                         both from picocli's model of the real command tree
 *   store-jar IN OUT      copies a jar with every entry stored (not deflated): the tarball's gzip then
 *                         compresses all classes as one stream, which is smaller than per-entry deflate;
 *                         jline-native's libraries for other platforms are left out
 * </pre>
 */
public final class BundleTools {
  private BundleTools() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 3 && args[0].equals("docs")) {
      docs(Path.of(args[1]), args[2]);
    } else if (args.length == 3 && args[0].equals("store-jar")) {
      storeJar(Path.of(args[1]), Path.of(args[2]));
    } else {
      System.err.println("usage: BundleTools docs OUTDIR VERSION | store-jar IN OUT");
      System.exit(2);
    }
  }

  // ---- the command tree, built as Main builds it ----------------------------------------------

  /** The root CommandLine with every subcommand, created through their Context constructors. */
  static CommandLine commandTree() {
    Context ctx = new Context(InputStream.nullInputStream(), new PrintStream(OutputStream.nullOutputStream()),
        new PrintStream(OutputStream.nullOutputStream()), Map.of(), Path.of("").toAbsolutePath(), false);
    CommandLine.IFactory factory = new CommandLine.IFactory() {
      @Override
      public <K> K create(Class<K> cls) throws Exception {
        try {
          Constructor<K> c = cls.getDeclaredConstructor(Context.class);
          c.setAccessible(true);
          return c.newInstance(ctx);
        } catch (NoSuchMethodException e) {
          return CommandLine.defaultFactory().create(cls);
        }
      }
    };
    return NcclTriage.commandLine(factory);
  }

  static void docs(Path out, String version) throws IOException {
    CommandLine root = commandTree();
    Path completion = out.resolve("share/bash-completion/completions/nccl-triage");
    Files.createDirectories(completion.getParent());
    Files.writeString(completion, AutoComplete.bash("nccl-triage", root), StandardCharsets.UTF_8);

    Path man1 = out.resolve("share/man/man1");
    Files.createDirectories(man1);
    List<CommandLine> all = new ArrayList<>();
    collect(root, all);
    for (CommandLine cl : all) {
      String page = pageName(cl.getCommandSpec());
      Files.writeString(man1.resolve(page + ".1"), new ManPage(cl, root, all, version).render(),
          StandardCharsets.UTF_8);
    }
  }

  private static void collect(CommandLine cl, List<CommandLine> into) {
    into.add(cl);
    for (CommandLine sub : distinctSubcommands(cl)) {
      collect(sub, into);
    }
  }

  /** Subcommands once each (aliases map to the same CommandLine), hidden ones left out. */
  static List<CommandLine> distinctSubcommands(CommandLine cl) {
    List<CommandLine> subs = new ArrayList<>();
    for (CommandLine sub : cl.getSubcommands().values()) {
      if (!sub.getCommandSpec().usageMessage().hidden() && !subs.contains(sub)) {
        subs.add(sub);
      }
    }
    return subs;
  }

  static String pageName(CommandSpec spec) {
    return spec.qualifiedName("-");
  }

  // ---- roff ------------------------------------------------------------------------------------

  /** One man(7) page for one command of the tree. */
  static final class ManPage {
    private final CommandLine cl;
    private final CommandSpec spec;
    private final CommandLine root;
    private final List<CommandLine> all;
    private final String version;
    private final StringBuilder b = new StringBuilder();

    ManPage(CommandLine cl, CommandLine root, List<CommandLine> all, String version) {
      this.cl = cl;
      this.spec = cl.getCommandSpec();
      this.root = root;
      this.all = all;
      this.version = version;
    }

    String render() {
      String name = pageName(spec);
      line(".\\\" Generated at build time by dev.nccltriage.build.BundleTools from picocli's model of");
      line(".\\\" nccl-triage " + version + "; edit the @Command annotations, not this file.");
      line(".TH \"" + esc(name.toUpperCase(Locale.ROOT)) + "\" 1 \"\" \"nccl-triage " + esc(version)
          + "\" \"nccl-triage manual\"");
      line(".SH NAME");
      line(esc(name) + " \\- " + esc(firstSentence(description(spec))));

      line(".SH SYNOPSIS");
      line(".nf");
      String synopsis = plain(new CommandLine.Help(spec, CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF))
          .synopsis(0)).strip();
      synopsis = synopsis.replaceFirst("^Usage:\\s*", "");
      for (String s : synopsis.split("\n", -1)) {
        line(esc(s.stripTrailing()));
      }
      line(".fi");

      line(".SH DESCRIPTION");
      paragraphs(description(spec));
      if (spec.parent() == null) {
        line(".PP");
        line("A command is required; each has its own page, listed under COMMANDS. Every command also"
            + " takes \\fB\\-h\\fR/\\fB\\-\\-help\\fR.");
      }

      List<PositionalParamSpec> params = new ArrayList<>();
      for (PositionalParamSpec p : spec.positionalParameters()) {
        if (!p.hidden()) {
          params.add(p);
        }
      }
      if (!params.isEmpty()) {
        line(".SH ARGUMENTS");
        for (PositionalParamSpec p : params) {
          line(".TP");
          line("\\fI" + esc(p.paramLabel()) + "\\fR" + (p.arity().max() > 1 ? "..." : ""));
          argDescription(p);
        }
      }

      List<OptionSpec> options = new ArrayList<>();
      for (OptionSpec o : spec.options()) {
        if (!o.hidden()) {
          options.add(o);
        }
      }
      if (!options.isEmpty()) {
        line(".SH OPTIONS");
        for (OptionSpec o : options) {
          line(".TP");
          StringBuilder names = new StringBuilder();
          for (String n : o.names()) {
            if (names.length() > 0) {
              names.append(", ");
            }
            names.append("\\fB").append(esc(n)).append("\\fR");
          }
          if (o.arity().max() > 0 && !o.paramLabel().isEmpty() && !isBoolean(o)) {
            names.append(" \\fI").append(esc(o.paramLabel())).append("\\fR");
            if (o.arity().max() > 1) {
              names.append("...");
            }
          }
          line(names.toString());
          argDescription(o);
        }
      }

      List<CommandLine> subs = distinctSubcommands(cl);
      if (!subs.isEmpty()) {
        line(".SH COMMANDS");
        for (CommandLine sub : subs) {
          CommandSpec s = sub.getCommandSpec();
          line(".TP");
          line("\\fB" + esc(s.name()) + "\\fR");
          line(esc(oneLine(description(s))) + " See \\fB" + esc(pageName(s)) + "\\fR(1).");
        }
      }

      Map<String, String> exits = spec.usageMessage().exitCodeList();
      if (exits.isEmpty()) {
        exits = root.getCommandSpec().usageMessage().exitCodeList();
      }
      if (!exits.isEmpty()) {
        line(".SH EXIT STATUS");
        for (Map.Entry<String, String> e : exits.entrySet()) {
          line(".TP");
          line("\\fB" + esc(plain(e.getKey()).strip()) + "\\fR");
          line(esc(plain(e.getValue()).strip()));
        }
      }

      String footer = String.join("\n", spec.usageMessage().footer());
      if (!footer.isBlank()) {
        line(".SH NOTES");
        paragraphs(List.of(footer));
      }

      if (spec.parent() == null) {
        line(".SH ENVIRONMENT");
        env("NO_COLOR", "Any value: no colour in the text report (colour is used only when stdout is a terminal).");
        env("TERM", "dumb: no colour.");
        env("COLUMNS", "Width of the text report, 40 to 200 (default 100).");
        env("NCCL_*", "check and preflight read the NCCL environment of this process (or of \\-\\-pid PID) and"
            + " check it against what the container has.", true);
        env("NCCL_TRIAGE_JAVA_OPTS", "Extra JVM options for the launcher, after its defaults (so they win),"
            + " split on whitespace, e.g. \\-Xmx1g.", true);
        line(".SH FILES");
        line(".TP");
        line("\\fIbin/nccl\\-triage\\fR");
        line("The launcher of the self-contained bundle: a POSIX sh script that runs the bundled Java runtime"
            + " (\\fIruntime/\\fR) on the application jars (\\fIlib/app/\\fR) with the class-data-sharing"
            + " archive \\fIlib/nccl\\-triage.jsa\\fR. It needs no Java on the machine.");
        line(".TP");
        line("\\fIshare/samples/\\fR");
        line("A sample NCCL log to try: \\fBnccl\\-triage log share/samples/*.log\\fR.");
      }

      line(".SH SEE ALSO");
      List<String> refs = new ArrayList<>();
      for (CommandLine other : all) {
        if (other != cl) {
          refs.add("\\fB" + esc(pageName(other.getCommandSpec())) + "\\fR(1)");
        }
      }
      line(String.join(", ", refs));
      return b.toString();
    }

    private void env(String name, String text) {
      env(name, text, false);
    }

    private void env(String name, String text, boolean raw) {
      line(".TP");
      line("\\fB" + esc(name) + "\\fR");
      line(raw ? text : esc(text));
    }

    private static boolean isBoolean(OptionSpec o) {
      Class<?> t = o.type();
      return t == boolean.class || t == Boolean.class;
    }

    private void argDescription(ArgSpec a) {
      List<String> d = new ArrayList<>();
      for (String s : a.description()) {
        d.add(s);
      }
      String dv = a.defaultValueString();
      boolean mentionsDefault = String.join(" ", d).toLowerCase(Locale.ROOT).contains("default");
      if (dv != null && !dv.isEmpty() && !"null".equals(dv) && !mentionsDefault && !(a instanceof OptionSpec o
          && (isBoolean(o) || o.usageHelp() || o.versionHelp()))) {
        d.add("Default: " + dv + ".");
      }
      if (d.isEmpty()) {
        d.add("(no description)");
      }
      for (String s : d) {
        for (String l : plain(s).split("\n", -1)) {
          if (!l.isBlank()) {
            line(esc(l.strip()));
          }
        }
      }
    }

    private void paragraphs(List<String> text) {
      boolean first = true;
      for (String t : text) {
        for (String para : plain(t).split("\n\\s*\n")) {
          if (para.isBlank()) {
            continue;
          }
          if (!first) {
            line(".PP");
          }
          first = false;
          for (String l : para.split("\n")) {
            line(esc(l.strip()));
          }
        }
      }
    }

    private void line(String s) {
      // a text line that starts with a control character would be read as a request
      if (!s.startsWith(".") || s.startsWith(".\\\"") || s.matches("^\\.[A-Za-z]{1,2}( .*)?$")) {
        b.append(s);
      } else {
        b.append("\\&").append(s);
      }
      b.append('\n');
    }
  }

  static List<String> description(CommandSpec spec) {
    List<String> d = new ArrayList<>(List.of(spec.usageMessage().description()));
    if (d.isEmpty()) {
      d.add("The " + spec.name() + " command.");
    }
    return d;
  }

  static String oneLine(List<String> text) {
    return plain(String.join(" ", text)).replaceAll("\\s+", " ").strip();
  }

  static String firstSentence(List<String> text) {
    String s = oneLine(text);
    int dot = s.indexOf(". ");
    String first = dot > 0 ? s.substring(0, dot) : s;
    return first.endsWith(".") ? first.substring(0, first.length() - 1) : first;
  }

  /** picocli markup and format specifiers out: "@|bold x|@" -> "x", "%n" -> newline, "%%" -> "%". */
  static String plain(String s) {
    String t = s.replaceAll("@\\|[a-z,_ ]+ ([^|]*)\\|@", "$1");
    return t.replace("%n", "\n").replace("%%", "%");
  }

  /** roff escaping of text: backslash, hyphens (so they stay ASCII minus signs), leading quote/dot. */
  static String esc(String s) {
    StringBuilder r = new StringBuilder(s.length() + 8);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '\\' -> r.append("\\e");
        case '-' -> r.append("\\-");
        default -> r.append(c);
      }
    }
    String out = r.toString();
    if (out.startsWith("'") || out.startsWith(".")) {
      out = "\\&" + out;
    }
    return out;
  }

  // ---- stored jars -----------------------------------------------------------------------------

  /**
   * An entry of jline-native for another platform than the bundle's (linux-x64): jline loads the
   * library of the platform it runs on, from org/jline/nativ/Linux/x86_64/, and the 14 others are
   * about 0.25 MB of the tarball. The package's classes (directly in org/jline/nativ/) stay.
   */
  static boolean otherPlatformNative(String entry) {
    String dir = "org/jline/nativ/";
    if (!entry.startsWith(dir) || entry.indexOf('/', dir.length()) < 0) {
      return false;
    }
    String platform = entry.substring(dir.length());
    return !(platform.equals("Linux/") || platform.startsWith("Linux/x86_64/"));
  }

  static void storeJar(Path in, Path out) throws IOException {
    Files.createDirectories(out.toAbsolutePath().getParent());
    try (ZipFile zin = new ZipFile(in.toFile());
         ZipOutputStream zout = new ZipOutputStream(Files.newOutputStream(out))) {
      zout.setMethod(ZipOutputStream.STORED);
      Enumeration<? extends ZipEntry> entries = zin.entries();
      Map<String, Boolean> seen = new LinkedHashMap<>();
      while (entries.hasMoreElements()) {
        ZipEntry e = entries.nextElement();
        if (seen.put(e.getName(), Boolean.TRUE) != null || otherPlatformNative(e.getName())) {
          continue;
        }
        byte[] data;
        try (InputStream is = zin.getInputStream(e)) {
          data = is.readAllBytes();
        }
        ZipEntry n = new ZipEntry(e.getName());
        n.setMethod(ZipEntry.STORED);
        n.setTime(e.getTime());
        n.setSize(data.length);
        n.setCompressedSize(data.length);
        CRC32 crc = new CRC32();
        crc.update(data);
        n.setCrc(crc.getValue());
        if (e.getComment() != null) {
          n.setComment(e.getComment());
        }
        zout.putNextEntry(n);
        zout.write(data);
        zout.closeEntry();
      }
    }
  }
}
