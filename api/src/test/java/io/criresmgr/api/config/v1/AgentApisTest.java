package io.criresmgr.api.config.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.protobuf.Descriptors.Descriptor;
import io.criresmgr.api.agent.v1.AgentApi;
import io.criresmgr.api.agent.v1.AgentGrpc;
import io.grpc.ServiceDescriptor;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Pins the wire names and field numbers of the Config and Agent services cri-resmgr's agent uses.
 */
class AgentApisTest {

  @Test
  void configServiceHasUpstreamFullMethodNames() {
    assertEquals(
        Set.of("v1.Config/SetConfig", "v1.Config/SetAdjustment"),
        fullNames(ConfigGrpc.getServiceDescriptor()));
  }

  @Test
  void agentServiceHasUpstreamFullMethodNames() {
    assertEquals(
        Set.of(
            "v1.Agent/GetNode",
            "v1.Agent/PatchNode",
            "v1.Agent/UpdateNodeCapacity",
            "v1.Agent/HealthCheck"),
        fullNames(AgentGrpc.getServiceDescriptor()));
  }

  @Test
  void configMessagesHaveUpstreamFieldNumbers() {
    assertEquals(
        Map.of("node_name", 1, "config", 2), fields(ConfigApi.getDescriptor(), "SetConfigRequest"));
    assertEquals(Map.of("error", 1), fields(ConfigApi.getDescriptor(), "SetConfigReply"));
    assertEquals(
        Map.of("node_name", 1, "adjustment", 2),
        fields(ConfigApi.getDescriptor(), "SetAdjustmentRequest"));
    assertEquals(Map.of("errors", 1), fields(ConfigApi.getDescriptor(), "SetAdjustmentReply"));
  }

  @Test
  void agentMessagesHaveUpstreamFieldNumbers() {
    var file = AgentApi.getDescriptor();
    assertEquals(Map.of(), fields(file, "GetNodeRequest"));
    assertEquals(Map.of("node", 1), fields(file, "GetNodeReply"));
    assertEquals(Map.of("op", 1, "path", 2, "value", 3), fields(file, "JsonPatch"));
    assertEquals(Map.of("patches", 1), fields(file, "PatchNodeRequest"));
    assertEquals(Map.of(), fields(file, "PatchNodeReply"));
    assertEquals(Map.of("capacities", 1), fields(file, "UpdateNodeCapacityRequest"));
    assertEquals(Map.of(), fields(file, "UpdateNodeCapacityReply"));
    assertEquals(Map.of("query", 1), fields(file, "HealthCheckRequest"));
    assertEquals(Map.of("error", 1), fields(file, "HealthCheckReply"));
  }

  @Test
  void configMapRoundTrips() throws Exception {
    SetConfigRequest request =
        SetConfigRequest.newBuilder()
            .setNodeName("node-1")
            .putConfig("policy", "Active: none\n")
            .build();
    assertEquals(request, SetConfigRequest.parseFrom(request.toByteArray()));
    assertEquals("v1.SetConfigRequest", SetConfigRequest.getDescriptor().getFullName());
  }

  private static Map<String, Integer> fields(
      com.google.protobuf.Descriptors.FileDescriptor file, String message) {
    Descriptor descriptor = file.findMessageTypeByName(message);
    Map<String, Integer> fields = new TreeMap<>();
    descriptor.getFields().forEach(f -> fields.put(f.getName(), f.getNumber()));
    return fields;
  }

  private static Set<String> fullNames(ServiceDescriptor service) {
    return service.getMethods().stream()
        .map(m -> m.getFullMethodName())
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
