package io.criresmgr.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc.RuntimeServiceBlockingStub;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.sim.SimRuntime;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Drives pods through the daemon's relay socket the way kubelet does: run the sandbox, create,
 * start and (in the simulated runtime) finish each init container in turn (a native sidecar keeps
 * running), relisting after each so the daemon sees it exit, then create and start the containers;
 * stop and remove everything on delete. Single-threaded.
 */
final class Kubelet {
  private static final Duration NOTICE_TIMEOUT = Duration.ofSeconds(10);
  private static final long RELIST_MILLIS = 20;

  private final Supplier<RuntimeServiceBlockingStub> relay;
  private final SimRuntime runtime;
  private final Supplier<JsonNode> introspection;
  private final boolean webhook;
  private final Map<String, KubePod> pods = new LinkedHashMap<>();
  private int uids;

  /** A pod kubelet runs: its current container ids by name and every container id it made. */
  private record KubePod(
      PodSpec spec,
      String uid,
      String sandboxId,
      PodSandboxConfig config,
      Map<String, String> current,
      Map<String, Integer> attempts,
      List<String> made) {}

  Kubelet(
      Supplier<RuntimeServiceBlockingStub> relay,
      SimRuntime runtime,
      Supplier<JsonNode> introspection,
      boolean webhook) {
    this.relay = Objects.requireNonNull(relay, "relay");
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.introspection = Objects.requireNonNull(introspection, "introspection");
    this.webhook = webhook;
  }

  /** Names of the pods kubelet runs, in creation order. */
  List<String> podNames() {
    return List.copyOf(pods.keySet());
  }

  /** The spec of pod {@code name}, if it runs. */
  Optional<PodSpec> pod(String name) {
    return Optional.ofNullable(pods.get(name)).map(KubePod::spec);
  }

  /**
   * Runs {@code spec}; on a failure removes what was made and throws.
   *
   * @throws KubeletException naming the failed call, the object and the runtime's status
   */
  void create(PodSpec spec) {
    if (pods.containsKey(spec.name())) {
      throw new KubeletException("pod " + spec.name() + " already exists");
    }
    uids++;
    String uid = String.format("%08x-0000-4000-8000-%012x", uids, uids);
    PodSandboxConfig config = KubeletConfigs.sandbox(spec, uid, webhook);
    String sandboxId =
        call(
            "RunPodSandbox",
            spec.name(),
            () ->
                relay
                    .get()
                    .runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(config).build())
                    .getPodSandboxId());
    KubePod pod =
        new KubePod(
            spec,
            uid,
            sandboxId,
            config,
            new LinkedHashMap<>(),
            new LinkedHashMap<>(),
            new ArrayList<>());
    pods.put(spec.name(), pod);
    try {
      for (String name : spec.initContainerNames()) {
        String id = createAndStart(pod, name, 0);
        if (!spec.isSidecar(name)) {
          runtime.exitContainer(id, 0);
          relistUntilReleased(pod, name);
        }
      }
      spec.containerNames().forEach(name -> createAndStart(pod, name, 0));
    } catch (KubeletException | StatusRuntimeException e) {
      removeQuietly(spec.name());
      throw e;
    }
  }

  /** Stops and removes pod {@code name}. */
  void delete(String name) {
    KubePod pod = pods.get(name);
    if (pod == null) {
      throw new KubeletException(
          "no pod " + name + " (running: " + String.join(", ", pods.keySet()) + ")");
    }
    for (String id : pod.made()) {
      call(
          "StopContainer",
          id,
          () ->
              relay
                  .get()
                  .stopContainer(
                      StopContainerRequest.newBuilder().setContainerId(id).setTimeout(0).build()));
    }
    call(
        "StopPodSandbox",
        name,
        () ->
            relay
                .get()
                .stopPodSandbox(
                    StopPodSandboxRequest.newBuilder().setPodSandboxId(pod.sandboxId()).build()));
    for (String id : pod.made()) {
      call(
          "RemoveContainer",
          id,
          () ->
              relay
                  .get()
                  .removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build()));
    }
    call(
        "RemovePodSandbox",
        name,
        () ->
            relay
                .get()
                .removePodSandbox(
                    RemovePodSandboxRequest.newBuilder().setPodSandboxId(pod.sandboxId()).build()));
    pods.remove(name);
  }

  /**
   * Makes container {@code name}'s process exit with {@code code}; kubelet relists, and with {@code
   * restart} creates and starts the next attempt of the container.
   */
  void exit(String name, int code, boolean restart) {
    KubePod pod =
        pods.values().stream()
            .filter(p -> p.current().containsKey(name))
            .findFirst()
            .orElseThrow(() -> new KubeletException("no container " + name));
    String id =
        Objects.requireNonNull(pod.current().get(name), () -> "container " + name + " has no id");
    call(
        "exit",
        name,
        () -> {
          runtime.exitContainer(id, code);
          return null;
        });
    relist();
    if (restart) {
      createAndStart(pod, name, pod.attempts().merge(name, 1, Integer::sum));
    }
  }

  /** An unfiltered {@code ListContainers} through the daemon, as kubelet's relisting does. */
  void relist() {
    call(
        "ListContainers",
        "all",
        () -> relay.get().listContainers(ListContainersRequest.getDefaultInstance()));
  }

  /**
   * Relists, as kubelet does every second, until the daemon has released the exited container
   * {@code name} of {@code pod}, so that the next step sees its resources free.
   */
  private void relistUntilReleased(KubePod pod, String name) {
    String cacheId = pod.uid() + ":" + name;
    long deadline = System.nanoTime() + NOTICE_TIMEOUT.toNanos();
    relist();
    while (isActive(cacheId)) {
      if (System.nanoTime() > deadline) {
        throw new KubeletException(
            "the daemon did not notice that container "
                + name
                + " exited (relisted for "
                + NOTICE_TIMEOUT.toSeconds()
                + " s)");
      }
      try {
        Thread.sleep(RELIST_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new KubeletException("interrupted", e);
      }
      relist();
    }
  }

  private boolean isActive(String cacheId) {
    for (JsonNode p : introspection.get().path("pods")) {
      for (JsonNode c : p.path("containers")) {
        if (c.path("cacheId").asText().equals(cacheId)) {
          return List.of("creating", "created", "running").contains(c.path("state").asText());
        }
      }
    }
    return false;
  }

  private String createAndStart(KubePod pod, String name, int attempt) {
    CreateContainerRequest request =
        CreateContainerRequest.newBuilder()
            .setPodSandboxId(pod.sandboxId())
            .setConfig(KubeletConfigs.container(pod.spec(), pod.uid(), name, attempt))
            .setSandboxConfig(pod.config())
            .build();
    String id =
        call("CreateContainer", name, () -> relay.get().createContainer(request).getContainerId());
    pod.made().add(id);
    pod.current().put(name, id);
    call(
        "StartContainer",
        name,
        () ->
            relay
                .get()
                .startContainer(StartContainerRequest.newBuilder().setContainerId(id).build()));
    return id;
  }

  private void removeQuietly(String name) {
    try {
      delete(name);
    } catch (KubeletException e) {
      pods.remove(name); // the failure that made us clean up is what the caller reports
    }
  }

  private static <T> T call(String method, String what, Supplier<T> call) {
    try {
      return call.get();
    } catch (StatusRuntimeException e) {
      throw new KubeletException(
          method
              + " "
              + what
              + ": "
              + e.getStatus().getCode()
              + ": "
              + e.getStatus().getDescription(),
          e);
    }
  }
}
