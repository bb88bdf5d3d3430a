package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerFilter;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ContainerStateValue;
import io.criresmgr.api.runtime.v1.ContainerStatus;
import io.criresmgr.api.runtime.v1.ContainerStatusRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.grpc.StatusRuntimeException;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads the placement of every running container from the runtime ({@code ContainerStatus}, {@code
 * status.resources.linux}), as the reference e2e reads {@code Cpus_allowed}/{@code Mems_allowed} of
 * the containers' processes, plus what the daemon's {@code /introspect} says is allocated.
 */
final class Observer {
  private static final List<String> ACTIVE = List.of("creating", "created", "running");

  private final Supplier<RuntimeServiceBlockingStub> runtime;
  private final SystemTopology topology;
  private final Supplier<JsonNode> introspection;

  Observer(
      Supplier<RuntimeServiceBlockingStub> runtime,
      SystemTopology topology,
      Supplier<JsonNode> introspection) {
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.topology = Objects.requireNonNull(topology, "topology");
    this.introspection = Objects.requireNonNull(introspection, "introspection");
  }

  /** The topology placements are interpreted with. */
  SystemTopology topology() {
    return topology;
  }

  /** Reads the node now. */
  Observed read() {
    Map<String, ContainerFacts> running = new LinkedHashMap<>();
    Set<String> duplicates = new HashSet<>();
    for (Container c : runningContainers()) {
      ContainerStatus status;
      try {
        status =
            runtime
                .get()
                .containerStatus(
                    ContainerStatusRequest.newBuilder().setContainerId(c.getId()).build())
                .getStatus();
      } catch (StatusRuntimeException e) {
        continue; // removed since the listing
      }
      ContainerFacts facts = facts(status);
      if (running.putIfAbsent(facts.name(), facts) != null) {
        duplicates.add(facts.name());
      }
    }
    JsonNode introspect = introspection.get();
    return new Observed(running, allocated(introspect), introspect, duplicates);
  }

  private List<Container> runningContainers() {
    ContainerFilter running =
        ContainerFilter.newBuilder()
            .setState(ContainerStateValue.newBuilder().setState(ContainerState.CONTAINER_RUNNING))
            .build();
    return runtime
        .get()
        .listContainers(ListContainersRequest.newBuilder().setFilter(running).build())
        .getContainersList()
        .stream()
        .sorted(Comparator.comparingLong(Container::getCreatedAt).thenComparing(Container::getId))
        .toList();
  }

  private ContainerFacts facts(ContainerStatus status) {
    LinuxContainerResources linux = status.getResources().getLinux();
    CpuSet cpus =
        linux.getCpusetCpus().isBlank()
            ? topology.onlineCpus()
            : CpuSet.parse(linux.getCpusetCpus().trim());
    CpuSet mems =
        linux.getCpusetMems().isBlank()
            ? CpuSet.of(topology.nodes().keySet())
            : CpuSet.parse(linux.getCpusetMems().trim());
    return ContainerFacts.of(
        status.getMetadata().getName(),
        status.getLabelsOrDefault("io.kubernetes.pod.name", ""),
        status.getLabelsOrDefault("io.kubernetes.pod.namespace", ""),
        status.getId(),
        cpus,
        mems,
        topology);
  }

  /** Names of active containers with an assignment in the daemon's introspection. */
  private static Set<String> allocated(JsonNode introspect) {
    Set<String> out = new HashSet<>();
    for (JsonNode pod : introspect.path("pods")) {
      for (JsonNode c : pod.path("containers")) {
        JsonNode a = c.path("assignment");
        boolean assigned =
            !a.path("cpus").asText("").isEmpty() || !a.path("mems").asText("").isEmpty();
        if (ACTIVE.contains(c.path("state").asText()) && assigned) {
          out.add(c.path("name").asText());
        }
      }
    }
    return out;
  }
}
