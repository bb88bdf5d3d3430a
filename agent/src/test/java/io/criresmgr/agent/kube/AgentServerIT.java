package io.criresmgr.agent.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.agent.probe.ProbeMain;
import io.criresmgr.agent.push.ConfigStatus;
import io.criresmgr.agent.server.AgentServer;
import io.criresmgr.agent.server.AgentService;
import io.criresmgr.agent.server.HealthQueries;
import io.criresmgr.api.agent.v1.AgentGrpc;
import io.criresmgr.api.agent.v1.GetNodeRequest;
import io.criresmgr.api.agent.v1.HealthCheckRequest;
import io.criresmgr.api.agent.v1.JsonPatch;
import io.criresmgr.api.agent.v1.PatchNodeRequest;
import io.criresmgr.api.agent.v1.UpdateNodeCapacityRequest;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.NettyChannelBuilder;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Node;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.unix.DomainSocketAddress;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The agent's API on a real Unix socket, backed by the fake API server over real HTTP. */
class AgentServerIT {
  @TempDir Path dir;
  private final FakeApiServer api = new FakeApiServer("kube-system");
  private final AtomicReference<ConfigStatus> status = new AtomicReference<>(ConfigStatus.PENDING);
  private final EventLoopGroup clientGroup =
      new MultiThreadIoEventLoopGroup(1, EpollIoHandler.newFactory());
  private @Nullable AgentServer server;
  private @Nullable ManagedChannel channel;

  @BeforeEach
  void start() throws IOException {
    api.putNode("n1", Map.of("group", "a"));
    api.start();
    server = serve(dir.resolve("agent.sock"));
    channel =
        NettyChannelBuilder.forAddress(new DomainSocketAddress(server.path().toString()))
            .eventLoopGroup(clientGroup)
            .channelType(EpollDomainSocketChannel.class)
            .withOption(ChannelOption.SO_KEEPALIVE, null)
            .usePlaintext()
            .build();
  }

  private AgentServer serve(Path socket) throws IOException {
    NodeApi node = new NodeApi(ApiClients.forUrl(api.url()), "n1");
    return AgentServer.start(socket, new AgentService(node, new HealthQueries(status::get)));
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
    if (server != null) {
      server.close();
    }
    var unused = clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    api.close();
  }

  private AgentGrpc.AgentBlockingStub agent() {
    return AgentGrpc.newBlockingStub(Objects.requireNonNull(channel))
        .withDeadlineAfter(10, TimeUnit.SECONDS);
  }

  private V1Node node() {
    return Objects.requireNonNull(api.node("n1"));
  }

  @Test
  void theSocketIsTheOwnersAndHasHealth() throws IOException {
    Path socket = Objects.requireNonNull(server).path();
    assertEquals(
        "rw-------",
        java.nio.file.attribute.PosixFilePermissions.toString(
            Files.getPosixFilePermissions(socket)));
    assertEquals(
        ServingStatus.SERVING,
        HealthGrpc.newBlockingStub(Objects.requireNonNull(channel))
            .check(io.grpc.health.v1.HealthCheckRequest.getDefaultInstance())
            .getStatus());
    IOException live = assertThrows(IOException.class, () -> serve(socket));
    assertEquals(
        "a process is already serving " + socket + "; is another agent running? Stop it first",
        live.getMessage());
  }

  @Test
  void aStaleSocketIsReplacedAndARegularFileKept() throws IOException {
    Path stale = dir.resolve("stale.sock");
    try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      s.bind(UnixDomainSocketAddress.of(stale));
    } // the file stays behind, as after a crash
    assertTrue(Files.exists(stale));
    serve(stale).close();
    assertTrue(Files.notExists(stale), "close removes the socket");

    Path file = Files.writeString(dir.resolve("file.sock"), "data");
    IOException e = assertThrows(IOException.class, () -> serve(file));
    assertEquals(file + " exists and is not a socket; remove it or choose another", e.getMessage());
    assertEquals("data", Files.readString(file));
  }

  @Test
  void getNodeReturnsTheNodeAsJson() {
    String json = agent().getNode(GetNodeRequest.getDefaultInstance()).getNode();
    V1Node node = JSON.deserialize(json, V1Node.class);
    assertEquals("n1", Objects.requireNonNull(node.getMetadata()).getName());
    assertEquals(Map.of("group", "a"), node.getMetadata().getLabels());
  }

  @Test
  void patchNodeAppliesAJsonPatch() {
    agent()
        .patchNode(
            PatchNodeRequest.newBuilder()
                .addPatches(op("add", "/metadata/labels/example.com~1x", "\"1\""))
                .addPatches(op("remove", "/metadata/labels/group", ""))
                .build());
    assertEquals(Map.of("example.com/x", "1"), node().getMetadata().getLabels());
    assertEquals(List.of("application/json-patch+json"), api.nodePatchTypes());
  }

  @Test
  void aPatchValueThatIsNotJsonIsAnInvalidArgument() {
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                agent()
                    .patchNode(
                        PatchNodeRequest.newBuilder()
                            .addPatches(op("add", "/metadata/labels/a", "\"1\""))
                            .addPatches(op("add", "/metadata/labels/b", "{bad"))
                            .build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertEquals(
        "patch 1 (path /metadata/labels/b): value is not JSON: {bad",
        e.getStatus().getDescription());
    assertEquals(List.of(), api.nodePatchTypes());
  }

  @Test
  void updateNodeCapacityMergesExtendedResources() {
    agent()
        .updateNodeCapacity(
            UpdateNodeCapacityRequest.newBuilder()
                .putCapacities("example.com/foo", "4")
                .putCapacities("example.com/bar", "2Gi")
                .build());
    Map<String, Quantity> capacity =
        Objects.requireNonNull(Objects.requireNonNull(node().getStatus()).getCapacity());
    assertEquals(
        Map.of(
            "example.com/foo",
            Quantity.fromString("4"),
            "example.com/bar",
            Quantity.fromString("2Gi")),
        capacity);
    assertEquals(List.of("application/merge-patch+json"), api.nodePatchTypes());
  }

  @Test
  void updateNodeCapacityRefusesNativeAndPlainNamesAndBadQuantities() {
    assertInvalid(
        "cpu",
        "4",
        "resource \"cpu\" is native (cpu, memory, hugepages-*) and set by the kubelet; only"
            + " extended resources, named with a '.' and a '/' (e.g. example.com/foo), can be set");
    assertInvalid(
        "foo",
        "4",
        "resource \"foo\" is not an extended resource; only extended resources, named with a '.'"
            + " and a '/' (e.g. example.com/foo), can be set");
    assertInvalid(
        "example.com/foo",
        "lots",
        "capacity of \"example.com/foo\": \"lots\" is not a Kubernetes quantity");
    assertEquals(List.of(), api.nodePatchTypes());
  }

  private void assertInvalid(String name, String quantity, String message) {
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                agent()
                    .updateNodeCapacity(
                        UpdateNodeCapacityRequest.newBuilder()
                            .putCapacities(name, quantity)
                            .build()));
    assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
    assertEquals(message, e.getStatus().getDescription());
  }

  @Test
  void apiServerFailuresAreUnavailableWithTheirStatusAndMessage() {
    api.failNodeRequests(403, "nodes \"n1\" is forbidden: no RBAC");
    StatusRuntimeException e =
        assertThrows(
            StatusRuntimeException.class,
            () -> agent().getNode(GetNodeRequest.getDefaultInstance()));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertEquals(
        "GetNode on node n1: API server answered HTTP 403: nodes \"n1\" is forbidden: no RBAC",
        e.getStatus().getDescription());
    e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                agent()
                    .patchNode(
                        PatchNodeRequest.newBuilder().addPatches(op("remove", "/x", "")).build()));
    assertEquals(
        "PatchNode on node n1: API server answered HTTP 403: nodes \"n1\" is forbidden: no RBAC",
        e.getStatus().getDescription());
    api.healNodeRequests();
    api.stop();
    e =
        assertThrows(
            StatusRuntimeException.class,
            () ->
                agent()
                    .updateNodeCapacity(
                        UpdateNodeCapacityRequest.newBuilder()
                            .putCapacities("a.b/c", "1")
                            .build()));
    assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
    assertTrue(
        String.valueOf(e.getStatus().getDescription())
            .startsWith("UpdateNodeCapacity on node n1: no answer from the API server: "),
        e.getStatus().getDescription());
  }

  @Test
  void healthCheckAnswersBothQueries() {
    assertEquals("", health(""));
    assertEquals("", health("config-status"));
    status.set(ConfigStatus.rejected("ConfigMap cm", "policy: bad"));
    assertEquals("", health(""));
    assertEquals("policy: bad", health("config-status"));
    status.set(ConfigStatus.accepted("ConfigMap cm"));
    assertEquals("", health("config-status"));
    assertEquals(
        "unknown health query \"ready\"; allowed: \"\" (the agent runs) and \"config-status\""
            + " (the last configuration was not rejected)",
        health("ready"));
  }

  private String health(String query) {
    return agent().healthCheck(HealthCheckRequest.newBuilder().setQuery(query).build()).getError();
  }

  @Test
  void theProbeExitsZeroWhenHealthyAndOneWithTheReason() {
    String socket = Objects.requireNonNull(server).path().toString();
    assertEquals(List.of(0, "", ""), probe("-agent-socket", socket));
    assertEquals(List.of(0, "", ""), probe("-agent-socket", socket, "-query", "config-status"));
    status.set(ConfigStatus.rejected("ConfigMap cm", "policy: bad"));
    assertEquals(List.of(0, "", ""), probe("-agent-socket=" + socket));
    assertEquals(
        List.of(1, "", "cri-resmgr-agent-probe: unhealthy: policy: bad\n"),
        probe("-agent-socket", socket, "-query", "config-status"));
    assertEquals(
        List.of(
            1,
            "",
            "cri-resmgr-agent-probe: unhealthy: unknown health query \"x\"; allowed: \"\" (the"
                + " agent runs) and \"config-status\" (the last configuration was not rejected)\n"),
        probe("--agent-socket", socket, "--query", "x"));
  }

  @Test
  void theProbeFailsOnAMissingSocketAndOneNobodyServes() throws IOException {
    Path missing = dir.resolve("missing.sock");
    assertEquals(
        List.of(
            1,
            "",
            "cri-resmgr-agent-probe: cannot reach the agent on "
                + missing
                + ": no such socket (is the agent running?)\n"),
        probe("-agent-socket", missing.toString()));

    Path stale = dir.resolve("stale.sock");
    try (ServerSocketChannel s = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      s.bind(UnixDomainSocketAddress.of(stale));
    }
    List<Object> result = probe("-agent-socket", stale.toString());
    assertEquals(1, result.get(0));
    String err = (String) result.get(2);
    assertTrue(
        err.startsWith(
            "cri-resmgr-agent-probe: cannot reach the agent on " + stale + ": UNAVAILABLE"),
        err);
    assertTrue(err.contains("Connection refused"), err);
    assertEquals(1, err.lines().count(), err);
  }

  /** Runs the probe in this JVM: exit status, stdout, stderr. */
  private static List<Object> probe(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = ProbeMain.run(args, new PrintWriter(out), new PrintWriter(err));
    return List.of(exit, out.toString(), err.toString());
  }

  private static JsonPatch op(String op, String path, String value) {
    return JsonPatch.newBuilder().setOp(op).setPath(path).setValue(value).build();
  }
}
