package io.criresmgr.agent.kube;

import static io.criresmgr.agent.Eventually.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import io.criresmgr.agent.adjust.AdjustmentAgent;
import io.criresmgr.api.config.v1.ConfigGrpc;
import io.criresmgr.api.config.v1.SetConfigRequest;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.criresmgr.testkit.InProcessDaemon;
import io.criresmgr.testkit.KubeletClient;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adjustments end to end without a cluster: Adjustment objects in the fake API server, the agent's
 * real watch, push and status write-back, and the real daemon in front of the simulated runtime
 * with the balloons policy. An adjustment grows a running container's balloon; a second one that
 * conflicts is rejected, its error written to both adjustments' status for this node, and the
 * container keeps its size; deleting the conflicting one clears the errors.
 */
class AdjustmentsEndToEndIT {
  private static final String NODE = "worker-1";
  private static final String GROW =
      "{\"scope\":[{\"nodes\":[\"worker-*\"],\"containers\":[{\"key\":\"name\","
          + "\"operator\":\"Equals\",\"values\":[\"web\"]}]}],"
          + "\"resources\":{\"requests\":{\"cpu\":\"3\"},\"limits\":{\"cpu\":\"3\"}}}";
  private static final String ALSO_WEB =
      "{\"scope\":[{\"containers\":[{\"key\":\"pod/name\",\"operator\":\"In\","
          + "\"values\":[\"web\"]}]}],\"classes\":{\"rdt\":\"gold\"}}";

  @TempDir Path dir;

  @Test
  void adjustmentsFromTheClusterResizeContainersAndConflictsShowInTheirStatus() throws Exception {
    EventLoopGroup loops = EventLoops.epoll("test-agent", 1);
    FakeApiServer api = new FakeApiServer("kube-system");
    api.start();
    AdjustmentAgent agent = null;
    ManagedChannel channel = null;
    try (InProcessDaemon d = InProcessDaemon.start(dir, "balloons");
        KubeletClient kubelet = new KubeletClient(d.relaySocket(), d.runtimeSocket())) {
      channel = RuntimeChannels.channel(d.configSocket(), loops);
      configureBalloons(channel);
      String web =
          kubelet.runContainer("web", "web", InProcessDaemon.IMAGE, "/kubepods/burstable/podweb");
      await(() -> CpuSets.count(kubelet.cpuset(web)) == 1);
      agent = startAgent(api, d.configSocket());

      api.putAdjustment("grow", GROW);
      await(() -> CpuSets.count(kubelet.cpuset(web)) == 3);
      await(() -> "{}".equals(errors(api, "grow")));

      api.putAdjustment("also-web", ALSO_WEB);
      String conflict =
          "{\""
              + web
              + "\":\"conflicting adjustments for default/web:web: also-web, grow;"
              + " at most one may apply to a container\"}";
      await(() -> conflict.equals(errors(api, "grow")) && conflict.equals(errors(api, "also-web")));
      assertEquals(3, CpuSets.count(kubelet.cpuset(web)), "the rejected set changed nothing");

      api.deleteAdjustment("also-web");
      await(() -> "{}".equals(errors(api, "grow")));
      api.deleteAdjustment("grow");
      await(() -> CpuSets.count(kubelet.cpuset(web)) == 1);
    } finally {
      if (agent != null) {
        agent.close();
      }
      if (channel != null) {
        channel.shutdownNow();
      }
      api.close();
      EventLoops.shutdown(loops);
    }
  }

  private static AdjustmentAgent startAgent(FakeApiServer api, Path configSocket) {
    AdjustmentAgent agent =
        AdjustmentAgent.create(
            new AdjustmentAgent.Settings(
                ApiClients.forUrl(api.url()),
                "kube-system",
                NODE,
                configSocket,
                Duration.ofMillis(50),
                Duration.ofMillis(100),
                new Backoff(Duration.ofMillis(50), Duration.ofMillis(200))));
    agent.start();
    return agent;
  }

  /** This node's errors in the status of Adjustment {@code name}, as JSON; null if none. */
  private static @Nullable String errors(FakeApiServer api, String name) {
    JsonObject adjustment = api.adjustment(name);
    if (adjustment == null || !adjustment.has("status")) {
      return null;
    }
    JsonObject nodes = adjustment.getAsJsonObject("status").getAsJsonObject("nodes");
    if (nodes == null || !nodes.has(NODE)) {
      return null;
    }
    return nodes.getAsJsonObject(NODE).get("errors").toString();
  }

  /** Balloons of at least 1 CPU for namespace default, sized by the containers' requests. */
  private static void configureBalloons(ManagedChannel channel) {
    String error =
        ConfigGrpc.newBlockingStub(channel)
            .withDeadlineAfter(10, TimeUnit.SECONDS)
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
    assertTrue(error.isEmpty(), error);
  }
}
