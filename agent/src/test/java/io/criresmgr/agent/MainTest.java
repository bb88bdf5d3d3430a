package io.criresmgr.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.agent.config.ConfigMapNames;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class MainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();
  private final List<AgentOptions> started = new ArrayList<>();

  @Test
  void defaultsAreThoseOfCriResmgrAgent() {
    assertEquals(0, run(Map.of("NODE_NAME", "n1")));
    assertEquals(
        List.of(
            new AgentOptions(
                new ConfigMapNames(
                    "kube-system",
                    "cri-resmgr-config",
                    "cri-resource-manager.intel.com/group",
                    "n1"),
                Optional.empty(),
                Path.of("/var/run/cri-resmgr/cri-resmgr-agent.sock"),
                Path.of("/var/run/cri-resmgr/cri-resmgr-config.sock"))),
        started);
  }

  @Test
  void goStyleSingleDashFlagsAreAccepted() {
    assertEquals(
        0,
        run(
            Map.of("NODE_NAME", "worker-2"),
            "-kubeconfig",
            "/etc/kube.conf",
            "-config-ns=cri",
            "-configmap-name",
            "cfg",
            "-label-name=example.com/pool",
            "-agent-socket",
            "/tmp/a.sock",
            "-cri-resmgr-socket",
            "/tmp/c.sock"));
    assertEquals(
        List.of(
            new AgentOptions(
                new ConfigMapNames("cri", "cfg", "example.com/pool", "worker-2"),
                Optional.of(Path.of("/etc/kube.conf")),
                Path.of("/tmp/a.sock"),
                Path.of("/tmp/c.sock"))),
        started);
  }

  @Test
  void configSocketIsTheDoubleDashSpelling() {
    assertEquals(0, run(Map.of("NODE_NAME", "n1"), "--config-socket", "/run/x.sock"));
    assertEquals(Path.of("/run/x.sock"), started.get(0).configSocket());
  }

  @Test
  void withoutNodeNameTheAgentDoesNotStart() {
    assertEquals(1, run(Map.of()));
    assertEquals(List.of(), started);
    assertTrue(
        err.toString().startsWith("cri-resmgr-agent: NODE_NAME is not set in the environment"),
        err.toString());
  }

  @Test
  void anEmptyNamespaceIsAUsageError() {
    assertEquals(1, run(Map.of("NODE_NAME", "n1"), "-config-ns="));
    assertTrue(
        err.toString().startsWith("cri-resmgr-agent: namespace must not be empty"), err.toString());
  }

  @Test
  void aFailureToStartIsReportedOnce() {
    int status =
        Main.run(
            new String[0],
            Map.of("NODE_NAME", "n1"),
            new PrintWriter(out, true),
            new PrintWriter(err, true),
            options -> {
              throw new IOException("cannot read kubeconfig /x");
            });
    assertEquals(1, status);
    assertEquals("cri-resmgr-agent: cannot read kubeconfig /x\n", err.toString());
  }

  @Test
  void helpListsTheFlags() {
    assertEquals(0, run(Map.of(), "-h"));
    for (String flag :
        List.of(
            "--kubeconfig",
            "--config-ns",
            "--configmap-name",
            "--label-name",
            "--agent-socket",
            "--config-socket")) {
      assertTrue(out.toString().contains(flag), flag + " in " + out);
    }
  }

  private int run(Map<String, String> env, String... args) {
    return Main.run(
        args,
        env,
        new PrintWriter(out, true),
        new PrintWriter(err, true),
        options -> {
          started.add(options);
          return 0;
        });
  }
}
