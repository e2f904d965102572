package dev.nccltriage.dist;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.nccltriage.cli.CliRun;
import dev.nccltriage.cli.ToolProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kubernetes examples in {@code dist/k8s/}: parses every {@code *.yaml} there (multi-document)
 * and checks, for every Pod template it finds, the fields the docs rely on: the {@code preflight}
 * initContainer, the same RDMA and GPU resources as the training container, IPC_LOCK, the same
 * user, the Multus annotation (and the NetworkAttachmentDefinition it names), a memory-backed
 * /dev/shm, restartPolicy Never, the NCCL environment and the expectations preflight applies. A
 * template may instead run preflight as a wrapper of the training command ({@code
 * nccl-triage preflight ... -- torchrun ...} in the training container), from a bundle an
 * initContainer in the nccl-triage image copies into an emptyDir.
 * {@link #eachCheckCanFail} breaks each of them in a copy of the parsed manifests and asserts the
 * checker says so.
 */
class K8sManifestsTest {
  static final Path DIR = Path.of("dist", "k8s");
  static final String MULTUS = "k8s.v1.cni.cncf.io/networks";
  static final String GPU = "nvidia.com/gpu";
  static final String JOB = "training-job.yaml Job/llm-train";
  static final String WRAPPED = "training-job-wrapped.yaml Job/llm-train-wrapped";
  static final String PT_MASTER = "pytorchjob.yaml PyTorchJob/llm-train-pt Master";
  static final String PT_WORKER = "pytorchjob.yaml PyTorchJob/llm-train-pt Worker";
  static final String DEBUG = "debug-pod.yaml Pod/nccl-triage-debug";
  static final Set<String> EXPECTATION_KEYS = Set.of("hcas", "iface", "gdr", "minMemlock");
  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  static final ObjectMapper JSON = new ObjectMapper();

  static List<Doc> docs;

  /** One YAML document: its file (relative to dist/k8s) and its 1-based index in that file. */
  record Doc(String file, int index, ObjectNode node) {
    String kind() {
      return node.path("kind").asText();
    }

    String name() {
      return node.path("metadata").path("name").asText();
    }

    String namespace() {
      return node.path("metadata").path("namespace").asText("default");
    }

    Doc copy() {
      return new Doc(file, index, node.deepCopy());
    }
  }

  /**
   * A Pod template: {@code template} has {@code metadata} and {@code spec}; {@code replica} is the
   * PyTorchJob replica spec around it (its restartPolicy wins), {@code job} whether it runs
   * training and so must have preflight and restartPolicy Never.
   */
  record PodTemplate(String where, String namespace, ObjectNode template, JsonNode replica, boolean job) {}

  @BeforeAll
  static void load() throws IOException {
    docs = load(DIR);
  }

  static List<Doc> load(Path dir) throws IOException {
    List<Path> files;
    try (Stream<Path> s = Files.walk(dir)) {
      files = s.filter(p -> p.getFileName().toString().endsWith(".yaml")).sorted().toList();
    }
    List<Doc> out = new ArrayList<>();
    for (Path f : files) {
      String name = dir.relativize(f).toString();
      try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(f.toFile())) {
        int i = 0;
        while (it.hasNextValue()) {
          JsonNode n = it.nextValue();
          i++;
          if (n == null || n.isNull() || n.isMissingNode()) {
            continue;
          }
          assertThat(n.isObject()).as("%s#%d is a mapping", name, i).isTrue();
          out.add(new Doc(name, i, (ObjectNode) n));
        }
      }
    }
    return out;
  }

  static List<Doc> copy(List<Doc> in) {
    return in.stream().map(Doc::copy).toList();
  }

  // ---------------------------------------------------------------- finding the Pod templates

  static List<PodTemplate> templates(List<Doc> docs) {
    List<PodTemplate> out = new ArrayList<>();
    for (Doc d : docs) {
      String where = d.file() + " " + d.kind() + "/" + d.name();
      switch (d.kind()) {
        case "Job" -> out.add(new PodTemplate(where, d.namespace(), obj(d.node().path("spec").path("template")), null, true));
        case "PyTorchJob" -> {
          JsonNode specs = d.node().path("spec").path("pytorchReplicaSpecs");
          for (Map.Entry<String, JsonNode> e : specs.properties()) {
            out.add(new PodTemplate(where + " " + e.getKey(), d.namespace(), obj(e.getValue().path("template")), e.getValue(), true));
          }
        }
        case "Pod" -> out.add(new PodTemplate(where, d.namespace(), d.node(), null, false));
        case "ConfigMap", "Service", "NetworkAttachmentDefinition" -> { }
        default -> throw new AssertionError(where + ": a kind this test does not know; teach it where the Pod template is");
      }
    }
    return out;
  }

  static ObjectNode obj(JsonNode n) {
    return n instanceof ObjectNode o ? o : JSON.createObjectNode();
  }

  // ---------------------------------------------------------------- the checker

  /** Problems of one template, each "[code] where: what"; the code lets a test ask for one check. */
  static final class Problems {
    final List<String> out = new ArrayList<>();
    final String where;

    Problems(String where) {
      this.where = where;
    }

    void add(String code, String what) {
      out.add("[" + code + "] " + where + ": " + what);
    }
  }

  /** Everything wrong with one Pod template, each as "[code] where: what". Empty when it is fine. */
  static List<String> check(PodTemplate t, List<Doc> docs) {
    Problems bad = new Problems(t.where());
    JsonNode spec = t.template().path("spec");

    JsonNode training = trainingContainer(spec);
    if (training == null) {
      bad.add("training-container", "no training container (one container, or one named pytorch)");
      return bad.out;
    }
    JsonNode preflight = named(spec.path("initContainers"), "preflight");

    // resources the training container asks for
    Map<String, String> rdma = rdmaResources(training);
    String gpus = quantity(training, GPU);
    if (rdma.isEmpty()) {
      bad.add("rdma-requested", "the training container requests no RDMA resource (e.g. rdma/rdma_shared_device_a)");
    }
    if (gpus == null || gpus.equals("0")) {
      bad.add("gpu-requested", "the training container requests no " + GPU);
    }
    if (!ipcLock(training)) {
      bad.add("ipc-lock", "container " + training.path("name").asText() + " lacks IPC_LOCK in securityContext.capabilities.add");
    }

    // the preflight initContainer, and that it sees what training will see; or preflight as the
    // training container's own wrapper, which sees it by being it
    List<String> wrapper = wrapperOptions(training);
    if (preflight == null && wrapper == null) {
      if (t.job()) {
        bad.add("preflight-missing", "no initContainer named preflight, and the training container runs no"
            + " `nccl-triage preflight ... -- COMMAND`");
      }
    } else if (preflight == null) {
      checkWrapper(spec, training, bad);
      checkIface(t, training, wrapper, training, docs, bad);
    } else {
      List<String> argv = argv(preflight);
      if (!argv.contains("preflight")) {
        bad.add("preflight-command", "preflight's command/args " + argv + " do not run `preflight`");
      }
      if (!preflight.path("image").asText().contains("nccl-triage")) {
        bad.add("preflight-image", "preflight's image " + preflight.path("image") + " is not the nccl-triage image");
      }
      Map<String, String> pre = rdmaResources(preflight);
      if (!pre.equals(rdma)) {
        bad.add("rdma-same", "preflight requests RDMA " + pre + ", the training container " + rdma);
      }
      if (!Objects.equals(quantity(preflight, GPU), gpus)) {
        bad.add("gpu-same", "preflight requests " + GPU + " " + quantity(preflight, GPU) + ", the training container " + gpus);
      }
      if (!ipcLock(preflight)) {
        bad.add("ipc-lock", "container preflight lacks IPC_LOCK in securityContext.capabilities.add");
      }
      Long preUser = runAsUser(preflight, spec);
      Long trainUser = runAsUser(training, spec);
      if (preUser == null || !preUser.equals(trainUser)) {
        bad.add("same-user", "preflight runs as user " + preUser + ", the training container as " + trainUser
            + " (set runAsUser on both: CAP_IPC_LOCK is effective only for UID 0)");
      }
      if (!ncclEnv(preflight).equals(ncclEnv(training))) {
        bad.add("nccl-env-same", "preflight's NCCL_* " + ncclEnv(preflight) + " differ from the training container's " + ncclEnv(training));
      }
      checkIface(t, preflight, argv, training, docs, bad);
    }

    // Multus
    String networks = t.template().path("metadata").path("annotations").path(MULTUS).asText("").strip();
    if (networks.isEmpty()) {
      bad.add("multus", "no " + MULTUS + " annotation on the template's metadata");
    } else {
      for (String ref : networks.split(",")) {
        String r = ref.strip().replaceFirst("@.*$", "");
        String key = r.contains("/") ? r : t.namespace() + "/" + r;
        Doc nad = docs.stream().filter(d -> d.kind().equals("NetworkAttachmentDefinition")
            && (d.namespace() + "/" + d.name()).equals(key)).findFirst().orElse(null);
        if (nad == null) {
          bad.add("nad", "the annotation names " + key + ", which no NetworkAttachmentDefinition in dist/k8s defines");
          continue;
        }
        try {
          JsonNode cfg = JSON.readTree(nad.node().path("spec").path("config").asText());
          if (!cfg.path("ipam").path("type").isTextual() || cfg.path("type").asText().isEmpty()) {
            bad.add("nad", key + ": spec.config has no type or no ipam.type (net1 would get no address)");
          }
        } catch (IOException e) {
          bad.add("nad", key + ": spec.config is not JSON: " + e.getMessage().lines().findFirst().orElse(""));
        }
      }
    }

    // /dev/shm
    String shmVolume = null;
    for (JsonNode m : training.path("volumeMounts")) {
      if (m.path("mountPath").asText().equals("/dev/shm")) {
        shmVolume = m.path("name").asText();
      }
    }
    JsonNode emptyDir = shmVolume == null ? null : named(spec.path("volumes"), shmVolume);
    emptyDir = emptyDir == null ? null : emptyDir.path("emptyDir");
    if (emptyDir == null || !emptyDir.path("medium").asText().equals("Memory")) {
      bad.add("shm", "the training container mounts no emptyDir with medium Memory at /dev/shm");
    } else if (emptyDir.path("sizeLimit").asText().isEmpty()) {
      bad.add("shm-size", "the /dev/shm emptyDir has no sizeLimit");
    }

    // restartPolicy Never: a failed preflight then fails the Pod instead of looping
    if (t.job()) {
      List<String> policies = new ArrayList<>();
      if (t.replica() != null && t.replica().has("restartPolicy")) {
        policies.add(t.replica().path("restartPolicy").asText());
      }
      if (spec.has("restartPolicy")) {
        policies.add(spec.path("restartPolicy").asText());
      }
      if (policies.isEmpty() || policies.stream().anyMatch(s -> !s.equals("Never"))) {
        bad.add("restart-policy", "restartPolicy " + (policies.isEmpty() ? "unset" : policies) + ", not Never");
      }
    }

    // the NCCL environment of the training container
    Map<String, String> env = ncclEnv(training);
    if (!"INFO".equals(env.get("NCCL_DEBUG"))) {
      bad.add("nccl-debug", "the training container's NCCL_DEBUG is " + env.get("NCCL_DEBUG") + ", not INFO");
    }
    if (env.getOrDefault("NCCL_SOCKET_IFNAME", "").isBlank()) {
      bad.add("nccl-socket-ifname", "the training container sets no NCCL_SOCKET_IFNAME");
    }
    return bad.out;
  }

  /** The interface preflight expects is the one Multus creates and NCCL_SOCKET_IFNAME names. */
  static void checkIface(PodTemplate t, JsonNode preflight, List<String> argv, JsonNode training, List<Doc> docs,
      Problems bad) {
    String iface = expectedIface(t, preflight, argv, docs, bad);
    if (iface == null) {
      bad.add("expect-iface", "preflight expects no interface (--expect-iface or iface: in --expectations)");
    } else {
      String sock = ncclEnv(training).getOrDefault("NCCL_SOCKET_IFNAME", "");
      if (!sock.replaceFirst("^\\^?=?", "").equals(iface)) {
        bad.add("expect-iface", "preflight expects " + iface + " but NCCL_SOCKET_IFNAME is '" + sock + "'");
      }
      if (!multusInterfaces(t).contains(iface)) {
        bad.add("expect-iface", "preflight expects " + iface + " but the Multus annotation gives " + multusInterfaces(t));
      }
    }
  }

  /**
   * The options of {@code nccl-triage preflight OPTIONS -- COMMAND} when the container's argv is
   * that wrapper form (argv[0] a launcher named nccl-triage), else null.
   */
  static List<String> wrapperOptions(JsonNode container) {
    List<String> argv = argv(container);
    int dashes = argv.indexOf("--");
    if (argv.size() < 2 || !argv.get(0).endsWith("/nccl-triage") || !argv.get(1).equals("preflight") || dashes < 0) {
      return null;
    }
    return argv.subList(2, dashes);
  }

  /**
   * The wrapper form: the launcher is the bundle's, from an emptyDir of the Pod that an
   * initContainer in the nccl-triage image fills with `cp -a /opt/nccl-triage/. DIR/`; the
   * training command after -- is an argument list, not a shell string.
   */
  static void checkWrapper(JsonNode spec, JsonNode training, Problems bad) {
    List<String> argv = argv(training);
    String launcher = argv.get(0);
    JsonNode mount = null;
    for (JsonNode m : training.path("volumeMounts")) {
      if (launcher.equals(m.path("mountPath").asText().replaceFirst("/+$", "") + "/bin/nccl-triage")) {
        mount = m;
      }
    }
    JsonNode volume = mount == null ? null : named(spec.path("volumes"), mount.path("name").asText());
    if (volume == null || !volume.has("emptyDir")) {
      bad.add("wrapper-bundle", "the wrapper runs " + launcher + ", which is no bin/nccl-triage of an emptyDir"
          + " the training container mounts");
    } else {
      boolean filled = false;
      for (JsonNode init : spec.path("initContainers")) {
        for (JsonNode m : init.path("volumeMounts")) {
          String dir = m.path("mountPath").asText().replaceFirst("/+$", "");
          filled |= m.path("name").asText().equals(volume.path("name").asText())
              && init.path("image").asText().contains("nccl-triage")
              && argv(init).equals(List.of("cp", "-a", "/opt/nccl-triage/.", dir + "/"));
        }
      }
      if (!filled) {
        bad.add("wrapper-bundle", "no initContainer in the nccl-triage image copies the bundle into volume "
            + volume.path("name").asText() + " (cp -a /opt/nccl-triage/. DIR/)");
      }
    }
    List<String> command = argv.subList(argv.indexOf("--") + 1, argv.size());
    if (command.isEmpty() || command.get(0).endsWith("sh") && command.contains("-c")) {
      bad.add("wrapper-command", "the wrapped command " + command + " is no plain argument list (a shell"
          + " string hides its own PID 1 and signals behind the shell)");
    }
  }

  /** The interface preflight must find: --expect-iface, else iface: of the --expectations file. */
  static String expectedIface(PodTemplate t, JsonNode preflight, List<String> argv, List<Doc> docs, Problems bad) {
    String flag = option(argv, "--expect-iface");
    String file = option(argv, "--expectations");
    if (file == null) {
      return flag;
    }
    JsonNode spec = t.template().path("spec");
    JsonNode mount = null;
    for (JsonNode m : preflight.path("volumeMounts")) {
      String dir = m.path("mountPath").asText().replaceFirst("/+$", "");
      if (file.startsWith(dir + "/")) {
        mount = m;
      }
    }
    if (mount == null) {
      bad.add("expectations", "--expectations " + file + " but preflight mounts nothing there");
      return flag;
    }
    String key = file.substring(mount.path("mountPath").asText().replaceFirst("/+$", "").length() + 1);
    JsonNode volume = named(spec.path("volumes"), mount.path("name").asText());
    String cmName = volume == null ? "" : volume.path("configMap").path("name").asText();
    Doc cm = docs.stream().filter(d -> d.kind().equals("ConfigMap") && d.name().equals(cmName)
        && d.namespace().equals(t.namespace())).findFirst().orElse(null);
    if (cm == null) {
      bad.add("expectations", "--expectations " + file + ": volume " + mount.path("name") + " is no ConfigMap defined in dist/k8s");
      return flag;
    }
    String text = cm.node().path("data").path(key).asText(null);
    if (text == null) {
      bad.add("expectations", "ConfigMap " + cmName + " has no key " + key);
      return flag;
    }
    JsonNode e;
    try {
      e = YAML.readTree(text);
    } catch (IOException ex) {
      bad.add("expectations", "ConfigMap " + cmName + " " + key + " is not YAML");
      return flag;
    }
    if (e == null || !e.isObject()) {
      bad.add("expectations", "ConfigMap " + cmName + " " + key + " is not a mapping");
      return flag;
    }
    for (Iterator<String> it = e.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!EXPECTATION_KEYS.contains(k)) {
        bad.add("expectations", "ConfigMap " + cmName + " " + key + ": unknown key '" + k + "' (preflight would exit 2)");
      }
    }
    return flag != null ? flag : e.path("iface").asText(null);
  }

  /** Interfaces the Multus annotation creates: @name where given, else net1, net2, ... in order. */
  static List<String> multusInterfaces(PodTemplate t) {
    String networks = t.template().path("metadata").path("annotations").path(MULTUS).asText("").strip();
    List<String> out = new ArrayList<>();
    if (networks.isEmpty()) {
      return out;
    }
    String[] refs = networks.split(",");
    for (int i = 0; i < refs.length; i++) {
      int at = refs[i].indexOf('@');
      out.add(at >= 0 ? refs[i].substring(at + 1).strip() : "net" + (i + 1));
    }
    return out;
  }

  static JsonNode trainingContainer(JsonNode spec) {
    JsonNode cs = spec.path("containers");
    JsonNode pytorch = named(cs, "pytorch");
    if (pytorch != null) {
      return pytorch;
    }
    return cs.isArray() && cs.size() == 1 ? cs.get(0) : null;
  }

  static JsonNode named(JsonNode list, String name) {
    for (JsonNode n : list) {
      if (n.path("name").asText().equals(name)) {
        return n;
      }
    }
    return null;
  }

  static List<String> argv(JsonNode c) {
    List<String> out = new ArrayList<>();
    c.path("command").forEach(n -> out.add(n.asText()));
    c.path("args").forEach(n -> out.add(n.asText()));
    return out;
  }

  static String option(List<String> argv, String name) {
    for (int i = 0; i < argv.size(); i++) {
      if (argv.get(i).equals(name) && i + 1 < argv.size()) {
        return argv.get(i + 1);
      }
      if (argv.get(i).startsWith(name + "=")) {
        return argv.get(i).substring(name.length() + 1);
      }
    }
    return null;
  }

  /** Extended resources (limits, else requests) that are not GPUs: the RDMA devices. */
  static Map<String, String> rdmaResources(JsonNode c) {
    Map<String, String> out = new TreeMap<>();
    for (String section : List.of("requests", "limits")) {
      for (Iterator<String> it = c.path("resources").path(section).fieldNames(); it.hasNext(); ) {
        String k = it.next();
        if (k.contains("/") && !k.equals(GPU) && !k.startsWith("nvidia.com/mig-")) {
          out.put(k, quantity(c, k));
        }
      }
    }
    return out;
  }

  static String quantity(JsonNode c, String resource) {
    JsonNode r = c.path("resources");
    JsonNode q = r.path("limits").has(resource) ? r.path("limits").path(resource) : r.path("requests").path(resource);
    return q.isMissingNode() || q.isNull() ? null : q.asText();
  }

  static boolean ipcLock(JsonNode c) {
    for (JsonNode n : c.path("securityContext").path("capabilities").path("add")) {
      if (n.asText().equals("IPC_LOCK") || n.asText().equals("CAP_IPC_LOCK")) {
        return true;
      }
    }
    return false;
  }

  static Long runAsUser(JsonNode c, JsonNode podSpec) {
    JsonNode u = c.path("securityContext").path("runAsUser");
    if (u.isMissingNode() || u.isNull()) {
      u = podSpec.path("securityContext").path("runAsUser");
    }
    return u.isIntegralNumber() ? u.asLong() : null;
  }

  static Map<String, String> ncclEnv(JsonNode c) {
    Map<String, String> out = new TreeMap<>();
    for (JsonNode e : c.path("env")) {
      String name = e.path("name").asText();
      if (name.startsWith("NCCL_")) {
        out.put(name, e.has("value") ? e.path("value").asText() : e.path("valueFrom").toString());
      }
    }
    return out;
  }

  static List<String> checkAll(List<Doc> docs) {
    List<String> out = new ArrayList<>();
    for (PodTemplate t : templates(docs)) {
      out.addAll(check(t, docs));
    }
    return out;
  }

  // ---------------------------------------------------------------- the manifests as shipped

  @Test
  void everyYamlFileParsesAsKubernetesObjects() {
    assertThat(docs).extracting(Doc::file).contains("training-job.yaml", "training-job-wrapped.yaml", "pytorchjob.yaml",
        "debug-pod.yaml", "network-attachment.yaml");
    for (Doc d : docs) {
      String where = d.file() + "#" + d.index();
      assertThat(d.node().path("apiVersion").asText()).as("%s apiVersion", where).isNotEmpty();
      assertThat(d.kind()).as("%s kind", where).isNotEmpty();
      assertThat(d.name()).as("%s metadata.name", where).isNotEmpty();
    }
    assertThat(docs).extracting(d -> d.node().path("apiVersion").asText() + " " + d.kind()).contains(
        "batch/v1 Job", "kubeflow.org/v1 PyTorchJob", "v1 Pod", "v1 ConfigMap",
        "k8s.cni.cncf.io/v1 NetworkAttachmentDefinition");
  }

  @Test
  void findsEveryPodTemplate() {
    assertThat(templates(docs)).extracting(PodTemplate::where).containsExactlyInAnyOrder(JOB, WRAPPED, PT_MASTER, PT_WORKER, DEBUG);
  }

  @Test
  void everyPodTemplatePassesEveryCheck() {
    assertThat(checkAll(docs)).isEmpty();
  }

  @Test
  void theJobRunsIndexedOnTwoNodesAndFailsOnPreflight() {
    JsonNode job = doc(docs, "Job", "llm-train").node().path("spec");
    assertThat(job.path("completionMode").asText()).isEqualTo("Indexed");
    assertThat(job.path("parallelism").asInt()).isEqualTo(2);
    assertThat(job.path("completions").asInt()).isEqualTo(2);
    assertThat(job.path("backoffLimit").isInt()).isTrue();
    // a preflight failure fails the whole Job (the other index would wait for its peer forever)
    assertThat(job.path("podFailurePolicy").path("rules")).anySatisfy(r -> {
      assertThat(r.path("action").asText()).isEqualTo("FailJob");
      assertThat(r.path("onExitCodes").path("containerName").asText()).isEqualTo("preflight");
      assertThat(r.path("onExitCodes").path("operator").asText()).isEqualTo("NotIn");
    });
    // the rendezvous name llm-train-0.llm-train needs the headless Service and the subdomain
    assertThat(doc(docs, "Service", "llm-train").node().path("spec").path("clusterIP").asText()).isEqualTo("None");
    assertThat(job.path("template").path("spec").path("subdomain").asText()).isEqualTo("llm-train");
  }

  @Test
  void theDebugPodSleepsInTheNcclTriageImage() {
    JsonNode c = trainingContainer(doc(docs, "Pod", "nccl-triage-debug").node().path("spec"));
    assertThat(c.path("image").asText()).contains("nccl-triage");
    assertThat(argv(c)).containsExactly("sleep", "infinity");
  }

  @Test
  void readmeNamesEveryFile() throws IOException {
    String readme = Files.readString(DIR.resolve("README.md"));
    assertThat(readme).contains("training-job.yaml", "training-job-wrapped.yaml", "pytorchjob.yaml", "debug-pod.yaml", "network-attachment.yaml",
        "image/Dockerfile", "kubectl logs", "-c preflight");
  }

  @Test
  void theImageRecipeKeepsItsContract() throws IOException {
    String dockerfile = Files.readString(DIR.resolve("image/Dockerfile"));
    assertThat(dockerfile).contains("COPY target/nccl-triage-*-linux-x64.tar.gz", "/opt/nccl-triage",
        "ln -s /opt/nccl-triage/bin/nccl-triage /usr/local/bin/nccl-triage", "USER 65534",
        "ENTRYPOINT [\"nccl-triage\"]");
    assertThat(dockerfile.lines().filter(l -> l.startsWith("FROM "))).allSatisfy(l -> assertThat(l).contains("${BASE}"));
    assertThat(dockerfile).containsPattern("(?m)^ARG BASE=debian:12-slim$");
    String readme = Files.readString(DIR.resolve("image/README.md"));
    assertThat(readme).contains("mvn -B -Pbundle package",
        "docker build -f dist/k8s/image/Dockerfile -t REGISTRY/nccl-triage:0.1.0 .");
    assertThat(Files.readString(DIR.resolve("image/Dockerfile.dockerignore")))
        .contains("!target/nccl-triage-*-linux-x64.tar.gz");
  }

  /**
   * The preflight argv of every template, run through the real CLI against the capture of a
   * healthy 8-HCA Pod and of a Pod with no /dev/infiniband: the flags (and the expectations file
   * the ConfigMap holds) are ones nccl-triage accepts, and they pass a healthy Pod and stop a
   * broken one.
   */
  @Test
  void thePreflightArgsAreOnesTheToolAcceptsAndTheyDecide(@TempDir Path tmp) throws IOException {
    int ran = 0;
    for (PodTemplate t : templates(docs)) {
      JsonNode preflight = named(t.template().path("spec").path("initContainers"), "preflight");
      if (preflight == null) {
        continue;
      }
      List<String> argv = new ArrayList<>();
      preflight.path("args").forEach(n -> argv.add(n.asText()));
      assertThat(preflight.has("command")).as("%s: preflight keeps the image's ENTRYPOINT (nccl-triage)", t.where()).isFalse();
      int e = argv.indexOf("--expectations");
      if (e >= 0) {
        String file = argv.get(e + 1);
        Doc cm = doc(docs, "ConfigMap", "nccl-triage-expectations");
        Path local = tmp.resolve(ran + "-expectations.yaml");
        Files.writeString(local, cm.node().path("data").path(Path.of(file).getFileName().toString()).asText());
        argv.set(e + 1, local.toString());
      }
      for (String[] c : new String[][] {{"healthy-8hca-gdr-net1", "0", "healthy"}, {"no-dev-infiniband", "1", "problem"}}) {
        List<String> run = new ArrayList<>(argv);
        run.addAll(List.of("--root", "samples/captures/" + c[0]));
        CliRun r = CliRun.run(run.toArray(String[]::new));
        assertThat(r.exitCode()).as("%s: nccl-triage %s\n%s", t.where(), run, r.stderr()).isEqualTo(Integer.parseInt(c[1]));
        assertThat(r.stdout().strip().lines()).as("one JSON line on stdout").hasSize(1);
        assertThat(r.json().path("command").asText()).isEqualTo("preflight");
        assertThat(r.json().path("verdict").path("status").asText()).isEqualTo(c[2]);
      }
      ran++;
    }
    assertThat(ran).isEqualTo(3);
  }

  /**
   * The wrapper template's argv as the launcher hands it to the JVM (in-process, gate only, a fake
   * torchrun on PATH), on the same two captures: its options are accepted, the healthy Pod lets
   * torchrun run and the broken one keeps it from running.
   */
  @Test
  void theWrapperIsOneTheToolAcceptsAndItGatesTheTrainingCommand(@TempDir Path tmp) throws IOException {
    List<String> argv = argv(training(jobSpec(docs, "llm-train-wrapped")));
    assertThat(argv.subList(0, 2)).containsExactly("/opt/nccl-triage/bin/nccl-triage", "preflight");
    int dashes = argv.indexOf("--");
    assertThat(argv.get(dashes + 1)).isEqualTo("torchrun");
    Path bin = tmp.resolve("bin");
    ToolProcess.script(bin, "torchrun", "exit 0\n");
    Map<String, String> env = Map.of("COLUMNS", "100", "PATH", bin.toString(), "NCCL_TRIAGE_GATE_ONLY", "1");
    for (String[] c : new String[][] {{"healthy-8hca-gdr-net1", "0", "preflight passed; running torchrun"},
        {"no-dev-infiniband", "1", "preflight failed (exit 1); torchrun was not run"}}) {
      List<String> run = new ArrayList<>(argv.subList(1, dashes));
      run.addAll(List.of("--root", "samples/captures/" + c[0]));
      run.addAll(argv.subList(dashes, argv.size()));
      CliRun r = CliRun.run(new byte[0], env, false, run.toArray(String[]::new));
      assertThat(r.exitCode()).as("nccl-triage %s\n%s", run, r.stderr()).isEqualTo(Integer.parseInt(c[1]));
      assertThat(r.stdout()).as("stdout is left to the training command").isEmpty();
      assertThat(r.stderr()).startsWith("{\"schemaVersion\"").endsWith("nccl-triage: " + c[2] + "\n");
    }
  }

  // ---------------------------------------------------------------- each check can fail

  record Mutation(String name, String target, String code, Consumer<List<Doc>> apply) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Mutation> mutations() {
    return Stream.of(
        new Mutation("no preflight initContainer", JOB, "preflight-missing",
            d -> ((ArrayNode) jobSpec(d).path("initContainers")).removeAll()),
        new Mutation("preflight runs check", PT_WORKER, "preflight-command",
            d -> preflight(ptSpec(d, "Worker")).putArray("args").add("check")),
        new Mutation("preflight in another image", JOB, "preflight-image",
            d -> preflight(jobSpec(d)).put("image", "busybox:1.36")),
        new Mutation("preflight asks for another RDMA resource", JOB, "rdma-same", d -> {
          ObjectNode l = limits(preflight(jobSpec(d)));
          l.remove("rdma/rdma_shared_device_a");
          l.put("nvidia.com/hostdev", 8);
        }),
        new Mutation("preflight asks for no RDMA resource", PT_MASTER, "rdma-same",
            d -> limits(preflight(ptSpec(d, "Master"))).remove("rdma/rdma_shared_device_a")),
        new Mutation("training asks for no RDMA resource", JOB, "rdma-requested", d -> {
          limits(preflight(jobSpec(d))).remove("rdma/rdma_shared_device_a");
          limits(training(jobSpec(d))).remove("rdma/rdma_shared_device_a");
        }),
        new Mutation("preflight asks for fewer GPUs", JOB, "gpu-same",
            d -> limits(preflight(jobSpec(d))).put(GPU, 4)),
        new Mutation("training asks for no GPU", JOB, "gpu-requested", d -> {
          limits(preflight(jobSpec(d))).remove(GPU);
          limits(training(jobSpec(d))).remove(GPU);
        }),
        new Mutation("preflight without IPC_LOCK", JOB, "ipc-lock",
            d -> ((ObjectNode) preflight(jobSpec(d)).path("securityContext").path("capabilities")).putArray("add")),
        new Mutation("training without IPC_LOCK", PT_WORKER, "ipc-lock",
            d -> ((ObjectNode) training(ptSpec(d, "Worker")).path("securityContext")).remove("capabilities")),
        new Mutation("debug Pod without IPC_LOCK", DEBUG, "ipc-lock",
            d -> ((ObjectNode) training(podSpec(d)).path("securityContext")).remove("capabilities")),
        new Mutation("preflight as the image's user", JOB, "same-user",
            d -> ((ObjectNode) preflight(jobSpec(d)).path("securityContext")).remove("runAsUser")),
        new Mutation("preflight without the training NCCL_* env", JOB, "nccl-env-same",
            d -> preflight(jobSpec(d)).remove("env")),
        new Mutation("no Multus annotation", JOB, "multus",
            d -> ((ObjectNode) jobTemplate(d).path("metadata").path("annotations")).remove(MULTUS)),
        new Mutation("no Multus annotation on the debug Pod", DEBUG, "multus",
            d -> ((ObjectNode) doc(d, "Pod", "nccl-triage-debug").node().path("metadata").path("annotations")).remove(MULTUS)),
        new Mutation("Multus names an unknown NAD", PT_MASTER, "nad",
            d -> ((ObjectNode) ptTemplate(d, "Master").path("metadata").path("annotations")).put(MULTUS, "training/other-net@net1")),
        new Mutation("NAD without IPAM", JOB, "nad", d -> {
          ObjectNode spec = (ObjectNode) doc(d, "NetworkAttachmentDefinition", "rdma-net").node().path("spec");
          spec.put("config", "{\"cniVersion\": \"0.3.1\", \"name\": \"rdma-net\", \"type\": \"macvlan\", \"master\": \"ens1f0np0\"}");
        }),
        new Mutation("/dev/shm not memory-backed", JOB, "shm",
            d -> ((ObjectNode) named(jobSpec(d).path("volumes"), "dshm").path("emptyDir")).remove("medium")),
        new Mutation("/dev/shm not mounted", PT_WORKER, "shm",
            d -> ((ArrayNode) training(ptSpec(d, "Worker")).path("volumeMounts")).removeAll()),
        new Mutation("/dev/shm without sizeLimit", JOB, "shm-size",
            d -> ((ObjectNode) named(jobSpec(d).path("volumes"), "dshm").path("emptyDir")).remove("sizeLimit")),
        new Mutation("Job template restartPolicy OnFailure", JOB, "restart-policy",
            d -> jobSpec(d).put("restartPolicy", "OnFailure")),
        new Mutation("PyTorchJob replica restartPolicy OnFailure", PT_WORKER, "restart-policy",
            d -> ((ObjectNode) doc(d, "PyTorchJob", "llm-train-pt").node().path("spec").path("pytorchReplicaSpecs")
                .path("Worker")).put("restartPolicy", "OnFailure")),
        new Mutation("NCCL_DEBUG=WARN", JOB, "nccl-debug",
            d -> setEnv(training(jobSpec(d)), "NCCL_DEBUG", "WARN")),
        new Mutation("no NCCL_SOCKET_IFNAME", PT_MASTER, "nccl-socket-ifname",
            d -> removeEnv(training(ptSpec(d, "Master")), "NCCL_SOCKET_IFNAME")),
        new Mutation("NCCL_SOCKET_IFNAME on another interface", JOB, "expect-iface", d -> {
          setEnv(training(jobSpec(d)), "NCCL_SOCKET_IFNAME", "=net2");
          setEnv(preflight(jobSpec(d)), "NCCL_SOCKET_IFNAME", "=net2");
        }),
        new Mutation("preflight expects an interface Multus does not create", PT_WORKER, "expect-iface", d -> {
          ArrayNode args = (ArrayNode) preflight(ptSpec(d, "Worker")).path("args");
          for (int i = 0; i < args.size(); i++) {
            if (args.get(i).asText().equals("--expect-iface")) {
              args.set(i + 1, args.textNode("net2"));
            }
          }
          setEnv(training(ptSpec(d, "Worker")), "NCCL_SOCKET_IFNAME", "=net2");
          setEnv(preflight(ptSpec(d, "Worker")), "NCCL_SOCKET_IFNAME", "=net2");
        }),
        new Mutation("expectations file with an unknown key", JOB, "expectations",
            d -> ((ObjectNode) doc(d, "ConfigMap", "nccl-triage-expectations").node().path("data"))
                .put("expectations.yaml", "hca: 8\niface: net1\n")),
        new Mutation("expectations ConfigMap not mounted", JOB, "expectations",
            d -> preflight(jobSpec(d)).remove("volumeMounts")),
        new Mutation("the wrapper runs the image's launcher path, not the copied bundle", WRAPPED, "wrapper-bundle",
            d -> command(training(jobSpec(d, "llm-train-wrapped"))).set(0, "/usr/local/bin/nccl-triage")),
        new Mutation("no initContainer copies the bundle", WRAPPED, "wrapper-bundle",
            d -> ((ArrayNode) jobSpec(d, "llm-train-wrapped").path("initContainers")).removeAll()),
        new Mutation("the bundle's emptyDir is a hostPath", WRAPPED, "wrapper-bundle", d -> {
          ObjectNode v = (ObjectNode) named(jobSpec(d, "llm-train-wrapped").path("volumes"), "nccl-triage");
          v.remove("emptyDir");
          v.putObject("hostPath").put("path", "/opt/nccl-triage");
        }),
        new Mutation("the wrapped command is a shell string", WRAPPED, "wrapper-command", d -> {
          ArrayNode cmd = command(training(jobSpec(d, "llm-train-wrapped")));
          while (!cmd.get(cmd.size() - 1).asText().equals("--")) {
            cmd.remove(cmd.size() - 1);
          }
          cmd.add("sh").add("-c").add("exec torchrun /workspace/train.py");
        }),
        new Mutation("the wrapper without --", WRAPPED, "preflight-missing", d -> {
          ArrayNode cmd = command(training(jobSpec(d, "llm-train-wrapped")));
          for (int i = 0; i < cmd.size(); i++) {
            if (cmd.get(i).asText().equals("--")) {
              cmd.remove(i);
            }
          }
        }),
        new Mutation("the wrapper expects net2", WRAPPED, "expect-iface", d -> {
          ArrayNode cmd = command(training(jobSpec(d, "llm-train-wrapped")));
          for (int i = 0; i < cmd.size(); i++) {
            if (cmd.get(i).asText().equals("--expect-iface")) {
              cmd.set(i + 1, cmd.textNode("net2"));
            }
          }
        }),
        new Mutation("a sidecar beside the training container", JOB, "training-container",
            d -> ((ArrayNode) jobSpec(d).path("containers")).addObject().put("name", "sidecar").put("image", "busybox")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("mutations")
  void eachCheckCanFail(Mutation m) {
    List<JsonNode> shipped = docs.stream().map(d -> (JsonNode) d.node().deepCopy()).toList();
    List<Doc> mutated = copy(docs);
    PodTemplate before = templates(mutated).stream().filter(t -> t.where().equals(m.target())).findFirst().orElseThrow();
    assertThat(check(before, mutated)).as("the manifests as shipped").noneMatch(s -> s.startsWith("[" + m.code() + "]"));
    m.apply().accept(mutated);
    PodTemplate after = templates(mutated).stream().filter(t -> t.where().equals(m.target())).findFirst().orElseThrow();
    assertThat(check(after, mutated)).as("%s: problems reported for %s", m.name(), m.target())
        .anyMatch(s -> s.startsWith("[" + m.code() + "] " + m.target() + ":"));
    // the mutation touched a copy, not the parsed manifests the other tests check
    assertThat(docs.stream().map(d -> (JsonNode) d.node()).toList()).isEqualTo(shipped);
  }

  // ---------------------------------------------------------------- navigation for the mutations

  static Doc doc(List<Doc> docs, String kind, String name) {
    return docs.stream().filter(d -> d.kind().equals(kind) && d.name().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + "/" + name + " in dist/k8s"));
  }

  static ObjectNode jobTemplate(List<Doc> d) {
    return (ObjectNode) doc(d, "Job", "llm-train").node().path("spec").path("template");
  }

  static ObjectNode jobSpec(List<Doc> d) {
    return (ObjectNode) jobTemplate(d).path("spec");
  }

  static ObjectNode jobSpec(List<Doc> d, String name) {
    return (ObjectNode) doc(d, "Job", name).node().path("spec").path("template").path("spec");
  }

  static ArrayNode command(ObjectNode container) {
    return (ArrayNode) container.path("command");
  }

  static ObjectNode ptTemplate(List<Doc> d, String replica) {
    return (ObjectNode) doc(d, "PyTorchJob", "llm-train-pt").node().path("spec").path("pytorchReplicaSpecs")
        .path(replica).path("template");
  }

  static ObjectNode ptSpec(List<Doc> d, String replica) {
    return (ObjectNode) ptTemplate(d, replica).path("spec");
  }

  static ObjectNode podSpec(List<Doc> d) {
    return (ObjectNode) doc(d, "Pod", "nccl-triage-debug").node().path("spec");
  }

  static ObjectNode preflight(ObjectNode spec) {
    return (ObjectNode) Objects.requireNonNull(named(spec.path("initContainers"), "preflight"));
  }

  static ObjectNode training(ObjectNode spec) {
    return (ObjectNode) Objects.requireNonNull(trainingContainer(spec));
  }

  static ObjectNode limits(ObjectNode container) {
    return (ObjectNode) container.path("resources").path("limits");
  }

  static void setEnv(ObjectNode container, String name, String value) {
    ObjectNode e = (ObjectNode) named(container.path("env"), name);
    if (e == null) {
      e = ((ArrayNode) container.path("env")).addObject().put("name", name);
    }
    e.put("value", value);
  }

  static void removeEnv(ObjectNode container, String name) {
    ArrayNode env = (ArrayNode) container.path("env");
    for (int i = env.size() - 1; i >= 0; i--) {
      if (env.get(i).path("name").asText().equals(name)) {
        env.remove(i);
      }
    }
  }

}
