package io.criresmgr.agent.kube;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetAdjustmentRequest;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.criresmgr.testkit.InProcessDaemon;
import io.criresmgr.testkit.KubeletClient;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The daemon's side of adjustments over its real config socket, in front of the simulated runtime
 * with the balloons policy (balloons sized by CPU requests): an adjustment re-sizes a running
 * container's balloon, conflicts are rejected with the previous set kept, removing the adjustment
 * restores the pod's own request, the set survives a restart and applies to containers created
 * later (and only to those it matches), and a container two in-force adjustments match cannot be
 * created.
 */
class AdjustmentsDaemonIT {
  private static final String NODE = "worker-1";
  private static final String BURSTABLE = "/kubepods/burstable/pod";

  @TempDir Path dir;
  private final EventLoopGroup loops = EventLoops.epoll("test-agent", 1);
  private final List<ManagedChannel> channels = new ArrayList<>();

  @AfterEach
  void stopLoops() {
    channels.forEach(ManagedChannel::shutdownNow);
    EventLoops.shutdown(loops);
  }

  @Test
  void anAdjustmentResizesTheContainersBalloonUntilItIsRemoved() throws Exception {
    try (InProcessDaemon d = InProcessDaemon.start(dir, "balloons");
        KubeletClient kubelet = new KubeletClient(d.relaySocket(), d.runtimeSocket())) {
      ConfigGrpc.ConfigBlockingStub config = configure(d);
      String web = kubelet.runContainer("web", "web", InProcessDaemon.IMAGE, BURSTABLE + "web");
      await(() -> CpuSets.count(kubelet.cpuset(web)) == 1);

      assertEquals(Map.of(), adjust(config, Map.of("grow", growWeb("worker-*"))));
      await(() -> CpuSets.count(kubelet.cpuset(web)) == 3);

      Map<String, String> conflict =
          adjust(config, Map.of("grow", growWeb(NODE), "also", growWeb("")));
      assertEquals(
          Map.of(
              web,
              "conflicting adjustments for default/web:web: also, grow;"
                  + " at most one may apply to a container"),
          conflict);
      assertEquals(3, CpuSets.count(kubelet.cpuset(web)), "the rejected set changed nothing");

      Map<String, String> tooBig = adjust(config, Map.of("huge", growWeb(NODE, 20)));
      assertEquals(java.util.Set.of(web), tooBig.keySet());
      assertTrue(
          tooBig.get(web).startsWith("policy balloons cannot apply adjustment huge to default/"),
          tooBig.get(web));
      assertEquals(3, CpuSets.count(kubelet.cpuset(web)), "the refused set changed nothing");

      assertEquals(Map.of(), adjust(config, Map.of("grow", growWeb("other-node"))));
      await(() -> CpuSets.count(kubelet.cpuset(web)) == 1);
    }
  }

  @Test
  void theSetSurvivesARestartAndAppliesToNewContainers() throws Exception {
    try (InProcessDaemon d = InProcessDaemon.start(dir, "balloons")) {
      assertEquals(Map.of(), adjust(configure(d), Map.of("grow", growWeb(NODE))));
    }
    try (InProcessDaemon d = InProcessDaemon.start(dir, "balloons");
        KubeletClient kubelet = new KubeletClient(d.relaySocket(), d.runtimeSocket())) {
      configure(d);
      String web = kubelet.runContainer("web", "web", InProcessDaemon.IMAGE, BURSTABLE + "web");
      await(() -> CpuSets.count(kubelet.cpuset(web)) == 3);
      // db is not adjusted: the shared balloon grows by its own 1 CPU, not by 3.
      String db = kubelet.runContainer("db", "db", InProcessDaemon.IMAGE, BURSTABLE + "db");
      await(
          () ->
              CpuSets.count(kubelet.cpuset(db)) == 4
                  && kubelet.cpuset(web).equals(kubelet.cpuset(db)));
    }
  }

  @Test
  void aContainerTwoAdjustmentsMatchIsNotCreated() throws Exception {
    try (InProcessDaemon d = InProcessDaemon.start(dir, "balloons");
        KubeletClient kubelet = new KubeletClient(d.relaySocket(), d.runtimeSocket())) {
      ConfigGrpc.ConfigBlockingStub config = configure(d);
      assertEquals(Map.of(), adjust(config, Map.of("a", growWeb(NODE), "b", growWeb(NODE))));
      StatusRuntimeException e =
          assertThrows(
              StatusRuntimeException.class,
              () -> kubelet.runContainer("web", "web", InProcessDaemon.IMAGE, BURSTABLE + "web"));
      assertEquals(Status.Code.FAILED_PRECONDITION, e.getStatus().getCode());
      assertTrue(
          e.getStatus()
              .getDescription()
              .contains("conflicting adjustments for default/web:web: a, b"),
          e.getStatus().getDescription());
    }
  }

  @Test
  void aBestEffortContainersResourcesCannotBeAdjusted() throws Exception {
    try (InProcessDaemon d = InProcessDaemon.start(dir, "balloons");
        KubeletClient kubelet = new KubeletClient(d.relaySocket(), d.runtimeSocket())) {
      ConfigGrpc.ConfigBlockingStub config = configure(d);
      String web = kubelet.runContainer("web", "web", InProcessDaemon.IMAGE);
      assertEquals(
          Map.of(
              web,
              "adjustment grow: default/web:web is BestEffort; its resources cannot be adjusted"
                  + " (narrow the scope or drop resources)"),
          adjust(config, Map.of("grow", growWeb(NODE))));
      assertEquals(
          Map.of(
              "request",
              "adjustment bad: resources.cpu: the limit 1000m is below the request 2000m;"
                  + " a limit must be at least the request"),
          adjust(
              config,
              Map.of(
                  "bad",
                  "{\"scope\":[{}],\"resources\":{\"requests\":{\"cpu\":\"2\"},"
                      + "\"limits\":{\"cpu\":\"1\"}}}")));
    }
  }

  /** An adjustment of container {@code web} to 3 CPUs on nodes {@code nodes} (empty: all). */
  private static String growWeb(String nodes) {
    return growWeb(nodes, 3);
  }

  /** An adjustment of container {@code web} to {@code cpus} CPUs on nodes {@code nodes}. */
  private static String growWeb(String nodes, int cpus) {
    String scopeNodes = nodes.isEmpty() ? "" : "\"nodes\":[\"" + nodes + "\"],";
    return "{\"scope\":[{"
        + scopeNodes
        + "\"containers\":[{\"key\":\"name\",\"operator\":\"Equals\",\"values\":[\"web\"]}]}],"
        + "\"resources\":{\"requests\":{\"cpu\":\""
        + cpus
        + "\"},\"limits\":{\"cpu\":\""
        + cpus
        + "\"}},"
        + "\"classes\":{\"rdt\":\"gold\"}}";
  }

  /** Balloons of at least 1 CPU for namespace default, sized by the containers' requests. */
  private ConfigGrpc.ConfigBlockingStub configure(InProcessDaemon d) {
    ManagedChannel channel = RuntimeChannels.channel(d.configSocket(), loops);
    channels.add(channel);
    ConfigGrpc.ConfigBlockingStub config =
        ConfigGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS);
    String error =
        config
            .setConfig(
                SetConfigRequest.newBuilder()
                    .setNodeName(NODE)
                    .putConfig("instrumentation", "HTTPEndpoint: 127.0.0.1:0\n")
                    .putConfig(
                        "policy",
                        """
                        Active: balloons
                        ReservedResources:
                          CPU: 1
                        balloons:
                          BalloonTypes:
                            - Name: app
                              Namespaces: [default]
                              MinCPUs: 1
                        """)
                    .build())
            .getError();
    assertEquals("", error);
    return config;
  }

  /** Sends adjustments (name to spec JSON); the daemon's errors. */
  private static Map<String, String> adjust(
      ConfigGrpc.ConfigBlockingStub config, Map<String, String> specs) {
    StringBuilder json = new StringBuilder("{");
    specs.forEach(
        (name, spec) ->
            json.append(json.length() > 1 ? "," : "")
                .append('"')
                .append(name)
                .append("\":")
                .append(spec));
    json.append('}');
    return config
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .setAdjustment(
            SetAdjustmentRequest.newBuilder()
                .setNodeName(NODE)
                .setAdjustment(json.toString())
                .build())
        .getErrorsMap();
  }
}
