package io.criresmgr.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.agent.RbacGrants.ApiCall;
import io.criresmgr.agent.config.ConfigMapNames;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1DaemonSet;
import io.kubernetes.client.openapi.models.V1EnvVar;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PolicyRule;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import io.kubernetes.client.openapi.models.V1Volume;
import io.kubernetes.client.openapi.models.V1VolumeMount;
import io.kubernetes.client.util.Yaml;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The agent's objects of the Helm chart (packaging/helm/cri-resmgr, default values) against the
 * agent itself: every API call it makes is allowed by the RBAC objects and nothing else is, and the
 * DaemonSet gives it NODE_NAME, flags it accepts, the sockets it uses by default on the host
 * directory shared with the daemon, and the probe commands.
 */
class AgentManifestsTest {
  private static final String ACCOUNT = "cri-resmgr-agent";
  private static final String CONFIG_NS = ConfigMapNames.DEFAULT_NAMESPACE;
  private static final String ADJUSTMENTS = "criresmgr.intel.com";

  // The probe's executable and query, as the probe (written in parallel) will define them.
  private static final String PROBE = "cri-resmgr-agent-probe";
  private static final String CONFIG_STATUS_QUERY = "config-status";

  private static final List<ApiCall> CALLS = calls(CONFIG_NS);

  private static List<Object> objects = List.of();

  /**
   * Every request the agent (and the daemon through the agent's API) makes with {@code
   * -config-ns=configNamespace}.
   */
  static List<ApiCall> calls(String configNamespace) {
    return List.of(
        new ApiCall("", "nodes", "list", null),
        new ApiCall("", "nodes", "watch", null),
        new ApiCall("", "nodes", "get", null),
        new ApiCall("", "nodes", "patch", null),
        new ApiCall("", "nodes/status", "patch", null),
        new ApiCall("", "configmaps", "list", configNamespace),
        new ApiCall("", "configmaps", "watch", configNamespace),
        new ApiCall(ADJUSTMENTS, "adjustments", "list", configNamespace),
        new ApiCall(ADJUSTMENTS, "adjustments", "watch", configNamespace),
        new ApiCall(ADJUSTMENTS, "adjustments/status", "patch", configNamespace));
  }

  @BeforeAll
  static void load() throws IOException {
    objects = List.copyOf(Yaml.loadAll(HelmChart.template(Map.of())));
  }

  @Test
  void everyCallOfTheAgentIsAllowed() {
    RbacGrants grants = new RbacGrants(objects, HelmChart.NAMESPACE, ACCOUNT);
    for (ApiCall call : CALLS) {
      assertTrue(grants.allows(call), call + " is not granted");
    }
  }

  @Test
  void namespacedObjectsAreNotGrantedElsewhere() {
    RbacGrants grants = new RbacGrants(objects, HelmChart.NAMESPACE, ACCOUNT);
    for (ApiCall call : CALLS) {
      if (call.namespace() != null) {
        ApiCall elsewhere = new ApiCall(call.group(), call.resource(), call.verb(), "default");
        assertFalse(grants.allows(elsewhere), elsewhere + " is granted");
      }
    }
  }

  @Test
  void nothingBeyondTheCallsIsGranted() {
    for (V1PolicyRule rule : new RbacGrants(objects, HelmChart.NAMESPACE, ACCOUNT).rules()) {
      assertFalse(rule.getApiGroups().contains("*"), "any group in " + rule);
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            assertTrue(
                CALLS.stream()
                    .anyMatch(
                        c ->
                            c.group().equals(group)
                                && c.resource().equals(resource)
                                && c.verb().equals(verb)),
                verb + " " + group + "/" + resource + " is granted but never called");
          }
        }
      }
    }
  }

  @Test
  void theDaemonSetRunsAsTheAccountInTheReleaseNamespace() {
    V1ServiceAccount account = only(V1ServiceAccount.class);
    assertEquals(ACCOUNT, account.getMetadata().getName());
    assertEquals(HelmChart.NAMESPACE, account.getMetadata().getNamespace());
    V1DaemonSet ds = only(V1DaemonSet.class);
    assertEquals(AgentCommand.NAME, ds.getMetadata().getName());
    assertEquals(HelmChart.NAMESPACE, ds.getMetadata().getNamespace());
    assertEquals(ACCOUNT, pod().getServiceAccountName());
  }

  @Test
  void nodeNameComesFromTheNodeTheAgentRunsOn() {
    List<V1EnvVar> env = container().getEnv();
    V1EnvVar nodeName =
        env.stream().filter(e -> e.getName().equals(AgentCommand.NODE_NAME)).findFirst().get();
    assertNull(nodeName.getValue());
    assertEquals("spec.nodeName", nodeName.getValueFrom().getFieldRef().getFieldPath());
  }

  @Test
  void theArgsAreAcceptedAndEqualTheAgentsDefaults() {
    // No command: the args go to the image's entrypoint, cri-resmgr-agent.
    List<String> command = container().getCommand();
    assertTrue(command == null || command.isEmpty(), "command " + command);
    AgentOptions fromManifest = parse(container().getArgs().toArray(String[]::new));
    assertEquals(parse(), fromManifest);
  }

  @Test
  void bothSocketsAreOnTheHostDirectorySharedWithTheDaemon() {
    AgentOptions defaults = parse();
    Path dir = defaults.configSocket().getParent();
    assertEquals(dir, defaults.agentSocket().getParent());
    V1VolumeMount mount =
        container().getVolumeMounts().stream()
            .filter(m -> Path.of(m.getMountPath()).equals(dir))
            .findFirst()
            .orElseThrow(() -> new AssertionError("nothing mounted at " + dir));
    assertFalse(Boolean.TRUE.equals(mount.getReadOnly()), "the agent creates its socket there");
    V1Volume volume =
        pod().getVolumes().stream()
            .filter(v -> v.getName().equals(mount.getName()))
            .findFirst()
            .orElseThrow();
    assertEquals(dir, Path.of(volume.getHostPath().getPath()));
  }

  @Test
  void probesAskTheAgentAndItsConfigStatus() {
    assertEquals(List.of(PROBE), container().getLivenessProbe().getExec().getCommand());
    assertEquals(
        List.of(PROBE, "-query", CONFIG_STATUS_QUERY),
        container().getReadinessProbe().getExec().getCommand());
  }

  /** The options the agent runs with for {@code args} (NODE_NAME set). */
  static AgentOptions parse(String... args) {
    List<AgentOptions> seen = new ArrayList<>();
    StringWriter err = new StringWriter();
    int status =
        Main.run(
            args,
            Map.of(AgentCommand.NODE_NAME, "n1"),
            new PrintWriter(new StringWriter(), true),
            new PrintWriter(err, true),
            options -> {
              seen.add(options);
              return 0;
            });
    assertEquals(0, status, err.toString());
    return seen.get(0);
  }

  private static V1PodSpec pod() {
    return only(V1DaemonSet.class).getSpec().getTemplate().getSpec();
  }

  private static V1Container container() {
    List<V1Container> containers = pod().getContainers();
    assertEquals(1, containers.size());
    return containers.get(0);
  }

  private static <T> T only(Class<T> type) {
    List<T> found = objects.stream().filter(type::isInstance).map(type::cast).toList();
    assertEquals(1, found.size(), type.getSimpleName() + " objects");
    return found.get(0);
  }
}
