package io.criresmgr.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cli.Cli;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.proxy.cli.CriResmgrCommand;
import io.criresmgr.proxy.cli.DaemonStartup;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.InstrumentationConfig;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ContainerPort;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1Probe;
import io.kubernetes.client.openapi.models.V1SecurityContext;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The chart's value {@code nri.enabled} (docs/helm.md, docs/nri.md): a DaemonSet running the daemon
 * in NRI mode with flags the daemon accepts, the host directories it needs (/sys and a read-only
 * /dev below /host), as root with all capabilities dropped but DAC_OVERRIDE (or privileged if
 * asked), on the agent's nodes, with liveness and readiness probes on its health endpoint ({@code
 * --health-endpoint}, whatever its configuration's HTTP endpoint); nothing of it by default; bad
 * values refused with the field.
 */
class NriChartTest {
  private static final String DAEMONSET = "cri-resmgr-nri";

  @Test
  void theDefaultValuesRenderNoDaemon() throws IOException {
    assertEquals(Optional.empty(), daemonSet(Map.of()));
    assertFalse(HelmChart.template(Map.of()).contains("--nri"));
  }

  @Test
  void enablingItAddsOnlyTheDaemonsDaemonSet() throws IOException {
    List<String> without = names(Map.of());
    List<String> with = names(Map.of("nri.enabled", "true"));
    assertFalse(without.contains("DaemonSet/" + DAEMONSET), without.toString());
    assertTrue(with.contains("DaemonSet/" + DAEMONSET), with.toString());
    with.remove("DaemonSet/" + DAEMONSET);
    assertEquals(without, with);
  }

  @Test
  void theDaemonRunsInNriModeWithFlagsItAccepts() throws IOException {
    V1Container c = container(Map.of("nri.enabled", "true"));
    ParseResult flags = parse(c.getArgs());
    assertTrue(flags.matchedOptionValue("--nri", false));
    assertEquals("/var/run/nri/nri.sock", flags.matchedOptionValue("--nri-socket", ""));
    assertEquals("90", flags.matchedOptionValue("--nri-index", ""));
    assertEquals("/var/lib/cri-resmgr", flags.matchedOptionValue("--relay-dir", ""));
    assertEquals(
        "/var/run/cri-resmgr/cri-resmgr-config.sock",
        flags.matchedOptionValue("--config-socket", ""));
    assertEquals("/tmp/cri-resmgr.pid", flags.matchedOptionValue("--pid-file", ""));
    assertEquals(":8892", flags.matchedOptionValue("--health-endpoint", ""));
    assertFalse(flags.hasMatchedOption("--force-config"), "the agent configures the daemon");
  }

  @Test
  void theHostDirectoriesAreMountedWithSysDevAndProcBelowTheHostRoot() throws IOException {
    Map<String, String> values = Map.of("nri.enabled", "true");
    V1PodSpec pod = podSpec(values);
    Map<String, String> hostPaths = new TreeMap<>();
    Map<String, V1Volume> volumes = new HashMap<>();
    pod.getVolumes().forEach(v -> volumes.put(v.getName(), v));
    List<String> readOnly = new java.util.ArrayList<>();
    for (V1VolumeMount m : pod.getContainers().get(0).getVolumeMounts()) {
      V1Volume v = volumes.get(m.getName());
      String from = v.getHostPath() != null ? v.getHostPath().getPath() : "emptyDir";
      hostPaths.put(m.getMountPath(), from);
      if (Boolean.TRUE.equals(m.getReadOnly())) {
        readOnly.add(m.getMountPath());
      }
    }
    assertEquals(
        Map.of(
            "/var/run/nri", "/var/run/nri",
            "/var/run/cri-resmgr", "/var/run/cri-resmgr",
            "/var/lib/cri-resmgr", "/var/lib/cri-resmgr",
            "/host/sys", "/sys",
            "/host/dev", "/dev",
            "/host/proc", "/proc",
            "/tmp", "emptyDir"),
        hostPaths);
    assertEquals(List.of("/host/dev", "/host/proc"), readOnly);
    assertEquals("Memory", volumes.get("tmp").getEmptyDir().getMedium());
    ParseResult flags = parse(pod.getContainers().get(0).getArgs());
    assertEquals("/host", flags.matchedOptionValue("--host-root", ""));
    assertEquals("/host/sys/fs/cgroup", flags.matchedOptionValue("--cgroup-mount", ""));
  }

  @Test
  void itServesTheConfigSocketTheAgentUses() throws IOException {
    Map<String, String> values = Map.of("nri.enabled", "true");
    List<String> agentArgs = daemonSet(values, "cri-resmgr-agent").getContainers().get(0).getArgs();
    String socket = parse(container(values).getArgs()).matchedOptionValue("--config-socket", "");
    assertTrue(agentArgs.contains("-config-socket=" + socket), agentArgs.toString());
  }

  @Test
  void itRunsAsRootWithOnlyDacOverrideInTheHostsPidNamespace() throws IOException {
    V1PodSpec pod = podSpec(Map.of("nri.enabled", "true"));
    V1SecurityContext security = pod.getContainers().get(0).getSecurityContext();
    assertEquals(false, security.getPrivileged());
    assertEquals(false, security.getAllowPrivilegeEscalation());
    assertEquals(List.of("ALL"), security.getCapabilities().getDrop());
    assertEquals(List.of("DAC_OVERRIDE"), security.getCapabilities().getAdd());
    assertEquals(0L, security.getRunAsUser());
    assertEquals(0L, security.getRunAsGroup());
    assertEquals(true, security.getReadOnlyRootFilesystem());
    assertEquals(true, pod.getHostPID());
    assertEquals(false, pod.getAutomountServiceAccountToken());
    assertEquals("system-node-critical", pod.getPriorityClassName());
  }

  @Test
  void theCapabilitiesAreAValue() throws IOException {
    V1SecurityContext more =
        container(
                Map.of(
                    "nri.enabled", "true",
                    "nri.capabilities[0]", "DAC_OVERRIDE",
                    "nri.capabilities[1]", "SYS_ADMIN"))
            .getSecurityContext();
    assertEquals(List.of("DAC_OVERRIDE", "SYS_ADMIN"), more.getCapabilities().getAdd());
    assertEquals(List.of("ALL"), more.getCapabilities().getDrop());
    String none = HelmChart.template(Map.of("nri.enabled", "true", "nri.capabilities", "null"));
    V1SecurityContext without = containerIn(none).getSecurityContext();
    assertEquals(List.of(), without.getCapabilities().getAdd());
    assertFalse(none.contains("add:"), "no empty list is rendered:\n" + none);
    assertEquals(List.of("ALL"), without.getCapabilities().getDrop());
  }

  @Test
  void privilegedIsTheFallback() throws IOException {
    V1PodSpec pod = podSpec(Map.of("nri.enabled", "true", "nri.privileged", "true"));
    V1SecurityContext security = pod.getContainers().get(0).getSecurityContext();
    assertEquals(true, security.getPrivileged());
    assertNull(security.getCapabilities());
    assertNull(security.getAllowPrivilegeEscalation());
    assertEquals(0L, security.getRunAsUser());
    assertEquals(true, security.getReadOnlyRootFilesystem());
    assertEquals(
        podSpec(Map.of("nri.enabled", "true")).getVolumes(),
        pod.getVolumes(),
        "the same mounts either way");
  }

  @Test
  void itRunsWhereTheAgentRuns() throws IOException {
    Map<String, String> values =
        Map.of(
            "nri.enabled", "true",
            "agent.nodeSelector.cri-resmgr\\.io/mode", "nri",
            "agent.tolerations[0].key", "dedicated",
            "agent.tolerations[0].operator", "Exists");
    V1PodSpec agent = daemonSet(values, "cri-resmgr-agent");
    V1PodSpec daemon = podSpec(values);
    assertEquals(Map.of("cri-resmgr.io/mode", "nri"), daemon.getNodeSelector());
    assertEquals(agent.getNodeSelector(), daemon.getNodeSelector());
    assertEquals(agent.getTolerations(), daemon.getTolerations());
  }

  @Test
  void theValuesChooseTheSocketTheIndexAndTheImage() throws IOException {
    Map<?, ?> chart =
        new org.yaml.snakeyaml.Yaml().load(Files.readString(HelmChart.DIR.resolve("Chart.yaml")));
    V1Container defaults = container(Map.of("nri.enabled", "true"));
    assertEquals("localhost/cri-resmgr:" + chart.get("appVersion"), defaults.getImage());
    assertEquals("IfNotPresent", defaults.getImagePullPolicy());
    Map<String, String> values =
        Map.of(
            "nri.enabled", "true",
            "nri.socket", "/run/containerd/nri/plugin.sock",
            "nri.index", "7",
            "imageRegistry", "registry.example.com/crm",
            "nri.image.tag", "1.2.3",
            "nri.image.pullPolicy", "Always");
    V1Container c = container(values);
    ParseResult flags = parse(c.getArgs());
    assertEquals("/run/containerd/nri/plugin.sock", flags.matchedOptionValue("--nri-socket", ""));
    assertEquals("07", flags.matchedOptionValue("--nri-index", ""));
    assertTrue(
        c.getVolumeMounts().stream().anyMatch(m -> m.getMountPath().equals("/run/containerd/nri")));
    assertTrue(
        podSpec(values).getVolumes().stream()
            .anyMatch(
                v ->
                    v.getHostPath() != null
                        && v.getHostPath().getPath().equals("/run/containerd/nri")));
    assertEquals("registry.example.com/crm/cri-resmgr:1.2.3", c.getImage());
    assertEquals("Always", c.getImagePullPolicy());
  }

  @Test
  void probesAskTheDaemonsHealthEndpointForLivenessAndReadiness() throws IOException {
    V1Container c = container(Map.of("nri.enabled", "true"));
    assertEquals(2, c.getPorts().size(), c.getPorts().toString());
    V1ContainerPort http = c.getPorts().get(0);
    assertEquals("http", http.getName());
    assertEquals(8891, http.getContainerPort());
    // Where the daemon serves HTTP unless its configuration says otherwise: every address.
    assertEquals(":" + http.getContainerPort(), InstrumentationConfig.DEFAULT_HTTP_ENDPOINT);
    V1ContainerPort health = c.getPorts().get(1);
    assertEquals("health", health.getName());
    assertEquals(8892, health.getContainerPort());
    // Served whatever the configuration says: the flag's endpoint, on every address.
    assertEquals(
        ":" + health.getContainerPort(),
        parse(c.getArgs()).matchedOptionValue("--health-endpoint", ""));
    V1Probe live = c.getLivenessProbe();
    assertEquals("/livez", live.getHttpGet().getPath());
    assertEquals("health", live.getHttpGet().getPort().getStrValue());
    assertNull(live.getHttpGet().getHost(), "the pod's address, not the node's");
    assertEquals(
        List.of(10, 10, 5, 3),
        List.of(
            live.getInitialDelaySeconds(),
            live.getPeriodSeconds(),
            live.getTimeoutSeconds(),
            live.getFailureThreshold()));
    V1Probe ready = c.getReadinessProbe();
    assertEquals("/healthz", ready.getHttpGet().getPath());
    assertEquals("health", ready.getHttpGet().getPort().getStrValue());
    assertEquals(
        List.of(10, 5, 3),
        List.of(ready.getPeriodSeconds(), ready.getTimeoutSeconds(), ready.getFailureThreshold()));
    assertNull(c.getStartupProbe());
    assertNull(podSpec(Map.of("nri.enabled", "true")).getHostNetwork(), "the pod's own network");
  }

  @Test
  void theHealthPortIsAValueApartFromTheHttpPort() throws IOException {
    V1Container c =
        container(Map.of("nri.enabled", "true", "nri.healthPort", "9200", "nri.httpPort", "9100"));
    assertEquals(":9200", parse(c.getArgs()).matchedOptionValue("--health-endpoint", ""));
    assertEquals(
        Map.of("http", 9100, "health", 9200),
        Map.of(
            c.getPorts().get(0).getName(),
            c.getPorts().get(0).getContainerPort(),
            c.getPorts().get(1).getName(),
            c.getPorts().get(1).getContainerPort()));
    assertEquals("health", c.getLivenessProbe().getHttpGet().getPort().getStrValue());
    // Values written for the probes on the configured endpoint still render as they say.
    V1Container old =
        container(
            Map.of(
                "nri.enabled", "true",
                "nri.livenessProbe.httpGet.port", "http",
                "nri.readinessProbe.httpGet.port", "http"));
    assertEquals("http", old.getLivenessProbe().getHttpGet().getPort().getStrValue());
    assertEquals("http", old.getReadinessProbe().getHttpGet().getPort().getStrValue());
    assertEquals(8891, old.getPorts().get(0).getContainerPort());
  }

  @Test
  void theProbesAreValuesAndCanBeTurnedOff() throws IOException {
    V1Container tuned =
        container(
            Map.of(
                "nri.enabled", "true",
                "nri.httpPort", "9100",
                "nri.livenessProbe.timeoutSeconds", "2",
                "nri.livenessProbe.failureThreshold", "6",
                "nri.readinessProbe.periodSeconds", "30"));
    assertEquals(9100, tuned.getPorts().get(0).getContainerPort());
    assertEquals("/livez", tuned.getLivenessProbe().getHttpGet().getPath());
    assertEquals(2, tuned.getLivenessProbe().getTimeoutSeconds());
    assertEquals(6, tuned.getLivenessProbe().getFailureThreshold());
    assertEquals(30, tuned.getReadinessProbe().getPeriodSeconds());

    V1Container off =
        container(
            Map.of(
                "nri.enabled", "true",
                "nri.livenessProbe", "null",
                "nri.readinessProbe", "null"));
    assertNull(off.getLivenessProbe());
    assertNull(off.getReadinessProbe());
  }

  @Test
  void nothingIsLeftUnrendered() {
    String manifests = HelmChart.template(Map.of("nri.enabled", "true"));
    for (String leftOver : List.of("{{", "}}", "<no value>", ": null")) {
      assertFalse(manifests.contains(leftOver), leftOver + ":\n" + manifests);
    }
  }

  @Test
  void badValuesAreRefusedWithTheFieldAndWhatIsAllowed() {
    assertTrue(
        HelmChart.error(Map.of("nri.enabled", "true", "nri.index", "100"))
            .contains("nri.index: Must be less than or equal to 99"));
    assertTrue(
        HelmChart.error(Map.of("nri.enabled", "true", "nri.index", "-1"))
            .contains("nri.index: Must be greater than or equal to 0"));
    assertTrue(
        HelmChart.error(Map.of("nri.enabled", "true", "nri.socket", "nri.sock"))
            .contains(
                "nri.socket: \"nri.sock\" is not an absolute path of a socket below a directory"
                    + " other than /, e.g. /var/run/nri/nri.sock"));
    assertTrue(
        HelmChart.error(Map.of("nri.enabled", "true", "nri.socket", "/nri.sock"))
            .contains("nri.socket: \"/nri.sock\" is not an absolute path"));
    assertTrue(
        HelmChart.error(Map.of("nri.image.pullPolicy", "Sometimes"))
            .contains(
                "nri.image.pullPolicy must be one of the following: \"Always\","
                    + " \"IfNotPresent\", \"Never\""));
    assertTrue(
        HelmChart.error(Map.of("nri.capabilities[0]", "cap_sys_admin"))
            .contains("nri.capabilities.0: Does not match pattern '^[A-Z][A-Z_]*$'"));
    String prefixed = HelmChart.error(Map.of("nri.capabilities[0]", "CAP_SYS_ADMIN"));
    assertTrue(
        prefixed.contains("nri.capabilities.0: Must not validate the schema (not)"), prefixed);
    assertTrue(
        HelmChart.error(Map.of("nri.privileged", "yes"))
            .contains("nri.privileged: Invalid type. Expected: boolean, given: string"));
    assertTrue(
        HelmChart.error(Map.of("nri.httpPort", "0"))
            .contains("nri.httpPort: Must be greater than or equal to 1"));
    assertTrue(
        HelmChart.error(Map.of("nri.healthPort", "65536"))
            .contains("nri.healthPort: Must be less than or equal to 65535"));
    String same = HelmChart.error(Map.of("nri.enabled", "true", "nri.healthPort", "8891"));
    assertTrue(
        same.contains(
            "nri.healthPort: 8891 is nri.httpPort too, where the daemon's configured HTTP endpoint"
                + " (instrumentation.HTTPEndpoint) listens: give the health endpoint a port of its"
                + " own, e.g. 8892"),
        same);
    String probe = HelmChart.error(Map.of("nri.livenessProbe", "yes"));
    assertTrue(
        probe.contains("nri.livenessProbe: Invalid type. Expected: [object,null], given: string"),
        probe);
    assertTrue(
        HelmChart.error(Map.of("nri.indx", "1"))
            .contains("nri: Additional property indx is not allowed"));
  }

  /** {@code args} as the daemon's command line parses them; fails on a flag it does not accept. */
  private static ParseResult parse(List<String> args) {
    DaemonStartup startup =
        new DaemonStartup(ConfigLoader.builtIn(), (options, store, early) -> 0, Map.of());
    CommandLine cl =
        Cli.commandLine(
            new CriResmgrCommand(BuiltInPolicies.registry(), startup),
            List.of(),
            new PrintWriter(new StringWriter()),
            new PrintWriter(new StringWriter()),
            ConfigException.class::isInstance);
    return cl.parseArgs(args.toArray(String[]::new));
  }

  private static V1Container containerIn(String manifests) throws IOException {
    return Yaml.loadAll(manifests).stream()
        .filter(V1DaemonSet.class::isInstance)
        .map(V1DaemonSet.class::cast)
        .filter(d -> d.getMetadata().getName().equals(DAEMONSET))
        .findFirst()
        .orElseThrow()
        .getSpec()
        .getTemplate()
        .getSpec()
        .getContainers()
        .get(0);
  }

  private static V1Container container(Map<String, String> values) throws IOException {
    return podSpec(values).getContainers().get(0);
  }

  private static V1PodSpec podSpec(Map<String, String> values) throws IOException {
    return daemonSet(values).orElseThrow(() -> new AssertionError("no " + DAEMONSET));
  }

  private static Optional<V1PodSpec> daemonSet(Map<String, String> values) throws IOException {
    return daemonSets(values).stream()
        .filter(d -> d.getMetadata().getName().equals(DAEMONSET))
        .map(d -> d.getSpec().getTemplate().getSpec())
        .findFirst();
  }

  private static V1PodSpec daemonSet(Map<String, String> values, String name) throws IOException {
    return daemonSets(values).stream()
        .filter(d -> d.getMetadata().getName().equals(name))
        .map(d -> d.getSpec().getTemplate().getSpec())
        .findFirst()
        .orElseThrow(() -> new AssertionError("no DaemonSet " + name));
  }

  private static List<V1DaemonSet> daemonSets(Map<String, String> values) throws IOException {
    return Yaml.loadAll(HelmChart.template(values)).stream()
        .filter(V1DaemonSet.class::isInstance)
        .map(V1DaemonSet.class::cast)
        .toList();
  }

  private static List<String> names(Map<String, String> values) {
    return new java.util.ArrayList<>(
        HelmChart.documents(HelmChart.template(values)).stream()
            .map(o -> o.get("kind") + "/" + ((Map<?, ?>) o.get("metadata")).get("name"))
            .sorted()
            .toList());
  }
}
