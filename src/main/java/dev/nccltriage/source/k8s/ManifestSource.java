package dev.nccltriage.source.k8s;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.nccltriage.facts.FactSet;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads multi-document Kubernetes YAML and finds every pod template in it, wherever it sits (an
 * object whose {@code spec.containers} is a list: a Pod itself, a Job's {@code spec.template}, a
 * PyTorchJob's replica specs, a JobSet's replicated jobs, a LeaderWorkerSet's leader and worker
 * templates, a Volcano Job's tasks ...). Each template gets its own {@link FactSet} of {@code k8s.*}
 * and {@code env.NCCL_*} facts ({@link TemplateFacts}).
 *
 * <p>The input is streamed one object at a time: a document, or one item of a top-level {@code items:}
 * list ({@code kubectl get -A -o yaml} prints the whole cluster as one {@code kind: List} document).
 * Only that object's tree and lines are held, so memory does not grow with the input; an object
 * over {@link #MAX_OBJECT_CHARS} is refused (the API server stores at most 1.5 MiB).
 */
public final class ManifestSource {
  static final String MULTUS = "k8s.v1.cni.cncf.io/networks";
  /** The largest object (document or list item) read, in characters. */
  public static final long MAX_OBJECT_CHARS = 8L << 20;
  private static final String NAME = "[a-z0-9]([-a-z0-9.]*[a-z0-9])?";
  private static final Pattern MULTUS_ITEM = Pattern.compile("^(" + NAME + "/)?" + NAME + "(@[A-Za-z0-9_.-]+)?$");
  private static final Set<String> COUNT_KEYS = Set.of("replicas", "parallelism", "size");
  /**
   * How far from the line SnakeYAML blames a template action may be for the error to be the
   * template's: it names the line where the construct it could not finish began (a key above a
   * "{{- range"), or one it read ahead.
   */
  private static final int TEMPLATE_REACH = 3;

  private final Set<String> siteRdma;
  private final InputStream stdin;
  private final YAMLFactory yaml;
  private final ScalarTypes types = new ScalarTypes();
  private final boolean fast;

  public ManifestSource(InputStream stdin, Set<String> siteRdmaResources) {
    this(stdin, siteRdmaResources, true);
  }

  /** {@code fast} false: SnakeYAML reads everything (to check the fast reader against it). */
  ManifestSource(InputStream stdin, Set<String> siteRdmaResources, boolean fast) {
    this.fast = fast;
    this.stdin = stdin;
    this.siteRdma = siteRdmaResources;
    // SnakeYAML's own cap (3 MB per document) would refuse a large List; objects are capped here instead
    LoaderOptions options = new LoaderOptions();
    options.setCodePointLimit(Integer.MAX_VALUE);
    this.yaml = YAMLFactory.builder().loaderOptions(options).build();
  }

  /** What one input held: its lines, objects with a pod template, and the templates. */
  public record Counts(long lines, long objects, long templates) {}

  /** Hands each pod template of input {@code in} (a file, or "-" for stdin) to {@code sink}, in order. */
  public Counts read(String in, Path cwd, Consumer<PodTemplate> sink) throws ManifestException {
    Reader reader;
    try {
      reader = new InputStreamReader(in.equals("-") ? stdin : Files.newInputStream(cwd.resolve(in)),
          StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ManifestException(in + ": cannot read: " + e.getMessage());
    }
    try {
      return parse(in, reader, sink);
    } finally {
      if (!in.equals("-")) {
        try {
          reader.close();
        } catch (IOException e) {
          // read to the end already
        }
      }
    }
  }

  /** The pod templates of one file's text; {@code file} names it in evidence. */
  public List<PodTemplate> parse(String file, String text) throws ManifestException {
    List<PodTemplate> out = new ArrayList<>();
    parse(file, new StringReader(text), out::add);
    return out;
  }

  /** Receives each object read, and the text of its lines while it is held. */
  interface Objects {
    void object(Node object, IntFunction<String> lines);
  }

  private Counts parse(String file, Reader text, Consumer<PodTemplate> sink) throws ManifestException {
    long[] counts = new long[2];
    ManifestLines read = new ManifestLines(text);
    objects(file, read, (object, lines) -> emit(file, object, lines, sink, counts));
    return new Counts(read.lines(), counts[0], counts[1]);
  }

  /** Hands each object (a document, or an item of a top-level items: list) of {@code text} on, in order. */
  void objects(String file, Reader in, Objects each) throws ManifestException {
    ManifestLines text = in instanceof ManifestLines m ? m : new ManifestLines(in);
    BlockYaml.Resume at = new BlockYaml.Resume(BlockYaml.Context.DOCUMENT, 1, text, Map.of(), 0);
    if (fast) {
      // most manifests are plain block YAML, which a line reader builds many times faster than SnakeYAML;
      // at the first line it is not sure of, SnakeYAML reads on from the last object not yet handed on
      BlockYaml block = new BlockYaml(text, MAX_OBJECT_CHARS, types);
      try {
        at = block.read((object, lines) -> each.object(object, lines::line));
      } catch (IOException e) {
        throw new ManifestException(file + ": cannot read: " + e.getMessage());
      }
      if (at == null) {
        return;
      }
    }
    // this parser counts lines from the resume point (and from the "items:" put before an item)
    int base = at.line() - (at.context() == BlockYaml.Context.ITEMS ? 2 : 1);
    LineWindow window = new LineWindow(at.rest(), MAX_OBJECT_CHARS);
    IntFunction<String> lines = n -> window.line(n - base);
    Map<String, Node> listKeys = at.context() == BlockYaml.Context.DOCUMENT ? null : at.keys();
    try (JsonParser p = yaml.createParser(window)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t == JsonToken.VALUE_NULL) {
          continue; // an empty document
        }
        window.keepFrom(p.currentTokenLocation().getLineNr());
        Node doc = t == JsonToken.START_OBJECT ? document(p, base, listKeys, at.docLine(), window, each)
            : Node.read(p, 0, base);
        listKeys = null;
        each.object(doc, lines);
      }
    } catch (LineWindow.TooLarge e) {
      throw new ManifestException(file + ":" + (base + e.line) + ": " + (e.oneLine
          ? "a line longer than " + (LineWindow.MAX_LINE_CHARS >> 20) + " MiB"
          : "an object larger than " + (MAX_OBJECT_CHARS >> 20) + " MiB")
          + " (Kubernetes stores at most 1.5 MiB): not a manifest lint reads");
    } catch (JsonProcessingException e) {
      JsonLocation loc = e.getLocation();
      int mark = YamlErrors.problemLine(e.getOriginalMessage()); // SnakeYAML's: where the problem is
      int line = mark > 0 ? base + mark : loc == null ? 1 : base + loc.getLineNr();
      Map.Entry<Integer, String> action = text.actionNear(line, TEMPLATE_REACH);
      if (action != null) {
        String shown = action.getValue().length() > 60 ? action.getValue().substring(0, 60) + "..." : action.getValue();
        throw new ManifestException(file + ":" + action.getKey() + ": this is a Helm/Go template ('" + shown
            + "'), not YAML: render it first, e.g. helm template RELEASE CHART | nccl-triage lint -");
      }
      throw new ManifestException(file + ":" + line + ": invalid YAML: " + YamlErrors.plain(e.getOriginalMessage()));
    } catch (IOException e) {
      throw new ManifestException(file + ": cannot read: " + e.getMessage());
    }
  }

  /**
   * A document that is a map; the items of its top-level {@code items:} list are objects of their own,
   * read and handed on one at a time, and left out of the document. {@code listKeys}, when not null,
   * are the keys of this list document that the fast reader had read before it handed over, and
   * {@code docLine} its line.
   */
  private static Node document(JsonParser p, int base, Map<String, Node> listKeys, int docLine, LineWindow window,
      Objects each) throws IOException {
    int line = listKeys == null ? base + p.currentTokenLocation().getLineNr() : docLine;
    Map<String, Node> m = listKeys == null ? new LinkedHashMap<>() : new LinkedHashMap<>(listKeys);
    IntFunction<String> lines = n -> window.line(n - base);
    while (p.nextToken() == JsonToken.FIELD_NAME) {
      String key = p.currentName();
      int keyAt = base + p.currentTokenLocation().getLineNr();
      if (p.nextToken() == JsonToken.START_ARRAY && key.equals("items")) {
        while (p.nextToken() != JsonToken.END_ARRAY) {
          window.keepFrom(p.currentTokenLocation().getLineNr());
          each.object(Node.read(p, 0, base), lines);
        }
        continue;
      }
      m.put(key, Node.read(p, keyAt, base));
    }
    return new Node(m, line, line);
  }

  /** The pod templates of one object. */
  private void emit(String file, Node doc, IntFunction<String> lines, Consumer<PodTemplate> sink, long[] counts) {
    if (!doc.isMap()) {
      return;
    }
    String kind = String.valueOf(doc.get("kind").text());
    String name = doc.at("metadata", "name").text();
    if (name == null) {
      name = doc.at("metadata", "generateName").text();
    }
    Set<String> ignored = Suppressions.of(doc.at("metadata", "annotations", Suppressions.ANNOTATION));
    List<Found> found = new ArrayList<>();
    walk(doc, "", 1, found);
    long pods = 0;
    for (Found f : found) {
      try {
        pods = pods < 0 || f.pods() < 0 ? -1 : Math.addExact(pods, f.pods());
      } catch (ArithmeticException tooMany) {
        pods = -1;
      }
    }
    for (Found f : found) {
      sink.accept(new TemplateFacts(siteRdma, file, lines, kind, name, f, pods, ignored).build());
    }
    counts[0] += found.isEmpty() ? 0 : 1;
    counts[1] += found.size();
  }

  record Found(Node template, String path, long pods) {}

  private static void walk(Node n, String path, long pods, List<Found> out) {
    if (n.isMap()) {
      if (n.at("spec", "containers").value() instanceof List) {
        out.add(new Found(n, path, pods));
        return;
      }
      long here = pods;
      for (Map.Entry<String, Node> e : n.map().entrySet()) {
        if (here >= 0 && COUNT_KEYS.contains(e.getKey()) && e.getValue().value() instanceof Number) {
          long count = e.getValue().number(-1);
          // a count that does not fit, or a product that does not, leaves the number of pods unknown (-1)
          try {
            here = count < 0 ? -1 : Math.multiplyExact(here, count);
          } catch (ArithmeticException tooMany) {
            here = -1;
          }
        }
      }
      for (Map.Entry<String, Node> e : n.map().entrySet()) {
        String k = e.getKey();
        String sub = k.equals("spec") || k.equals("template") ? path : path.isEmpty() ? k : path + "." + k;
        walk(e.getValue(), sub, here, out);
      }
    } else {
      int i = 0;
      for (Node item : n.list()) {
        String label = item.at("name").text();
        walk(item, path + "[" + (label != null ? label : String.valueOf(i)) + "]", pods, out);
        i++;
      }
    }
  }

  /** Not a comma list of [namespace/]name[@interface], nor a JSON list of objects with a name. */
  static boolean malformed(String annotation) {
    String a = annotation == null ? "" : annotation.strip();
    if (a.isEmpty()) {
      return true;
    }
    if (a.startsWith("[") || a.startsWith("{")) {
      try {
        JsonNode j = new ObjectMapper().readTree(a);
        if (!j.isArray() || j.isEmpty()) {
          return true;
        }
        for (JsonNode x : j) {
          if (!x.isObject() || !x.path("name").isTextual() || x.path("name").asText().isBlank()) {
            return true;
          }
        }
        return false;
      } catch (IOException e) {
        return true;
      }
    }
    for (String item : a.split(",", -1)) {
      if (!MULTUS_ITEM.matcher(item.strip()).matches()) {
        return true;
      }
    }
    return false;
  }
}
