package io.criresmgr.proxy.nri;

import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.api.runtime.v1.UpdateContainerResourcesRequest;
import io.criresmgr.nri.NriException;
import io.criresmgr.nri.NriHandler;
import io.criresmgr.nri.NriPlugin;
import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.ContainerUpdate;
import io.criresmgr.nri.api.CreateContainerResponse;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.PodSandbox;
import io.criresmgr.nri.ttrpc.TtrpcException;
import io.criresmgr.proxy.core.CallScope;
import io.criresmgr.proxy.core.CreationClasses;
import io.criresmgr.proxy.core.Refusals;
import io.criresmgr.proxy.core.Requests;
import io.criresmgr.proxy.core.ResourceManager;
import io.criresmgr.proxy.core.RuntimeClient;
import io.criresmgr.proxy.core.StartupSync;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NRI front end (docs/nri.md): runs NRI's requests and events as the CRI requests the relay
 * intercepts, through the same handlers and pipeline. Synchronize reconciles the cache with NRI's
 * pods and containers as start-up does with the runtime's listing; CreateContainer answers with the
 * adjustment the pipeline's rewrite of the request amounts to; the pipeline's updates of other
 * containers go out in the answer to the request that caused them, or on their own ({@link
 * NriPlugin#updateContainers}) when no answer is pending. A refusal is the call's error, with the
 * text the relay answers kubelet with.
 */
public final class NriFrontEnd implements NriHandler, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(NriFrontEnd.class);

  private final ResourceManager manager;
  private final NriBackedRuntime runtime;
  private final Requests requests;
  private final ExecutorService sender =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "nri-updates");
            t.setDaemon(true);
            return t;
          });
  private final AtomicReference<@Nullable NriPlugin> plugin = new AtomicReference<>();
  private volatile boolean answering;
  private final Map<String, CreationClasses> creationClasses = new ConcurrentHashMap<>();

  /** Runs requests through {@code manager}, whose runtime channel is {@code runtime}'s. */
  NriFrontEnd(ResourceManager manager, NriBackedRuntime runtime) {
    this.manager = Objects.requireNonNull(manager, "manager");
    this.runtime = Objects.requireNonNull(runtime, "runtime");
    this.requests = manager.requests();
    runtime.onUpdate(this::updatedOutsideAnswers);
    requests
        .create()
        .onCreationClasses(c -> creationClasses.put(key(c.podSandboxId(), c.containerName()), c));
  }

  /** Sends unsolicited updates through {@code connected} from now on. */
  void attach(NriPlugin connected) {
    plugin.set(connected);
  }

  /** Stops sending through {@code gone}. */
  void detach(NriPlugin gone) {
    plugin.compareAndSet(gone, null);
  }

  @Override
  public void configure(String config, String runtimeName, String runtimeVersion) {
    LOG.info("NRI runtime {} {} configured this plugin", runtimeName, runtimeVersion);
  }

  @Override
  public List<ContainerUpdate> synchronize(List<PodSandbox> pods, List<Container> containers) {
    return answer(
        () -> {
          runtime.reset(pods, containers);
          try {
            var outcome = StartupSync.run(manager);
            LOG.info(
                "synchronized with NRI: {} pods, {} containers ({})",
                pods.size(),
                containers.size(),
                outcome);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NriException("interrupted while synchronizing", e);
          } catch (RuntimeException e) {
            throw new NriException(String.valueOf(e.getMessage()), e);
          }
          return updates();
        });
  }

  @Override
  public void runPodSandbox(PodSandbox pod) {
    runtime.put(pod);
    event(() -> call("RunPodSandbox", NriToCri.runRequest(pod), requests.pods()::run));
  }

  @Override
  public void stopPodSandbox(PodSandbox pod) {
    event(
        () ->
            call(
                "StopPodSandbox",
                StopPodSandboxRequest.newBuilder().setPodSandboxId(pod.getId()).build(),
                requests.pods()::stop));
  }

  @Override
  public void removePodSandbox(PodSandbox pod) {
    event(
        () -> {
          call(
              "RemovePodSandbox",
              RemovePodSandboxRequest.newBuilder().setPodSandboxId(pod.getId()).build(),
              requests.pods()::remove);
          runtime.removePod(pod.getId());
        });
  }

  @Override
  public CreateContainerResponse createContainer(PodSandbox pod, Container container) {
    runtime.put(pod);
    runtime.put(container);
    CreateContainerRequest request = NriToCri.createRequest(pod, container);
    String key = key(pod.getId(), container.getName());
    return answer(
        () -> {
          creationClasses.remove(key);
          try {
            call("CreateContainer", request, requests.create()::create);
          } catch (RuntimeException e) {
            runtime.removeContainer(container.getId());
            creationClasses.remove(key);
            throw e;
          }
          CreationClasses classes = creationClasses.remove(key);
          CreateContainerRequest sent = runtime.takeCreated(container.getId()).orElse(request);
          Map<String, LinuxContainerResources> sentUpdates = runtime.takeUpdates();
          // Decided again before the answer: the newer decision is the adjustment.
          LinuxContainerResources again = sentUpdates.remove(container.getId());
          if (again != null) {
            sent = withResources(sent, again);
          }
          return CreateContainerResponse.newBuilder()
              .setAdjust(
                  classes == null
                      ? CriToNri.adjustment(request, sent)
                      : CriToNri.adjustment(
                          request, sent, classes.rdtClass(), classes.blockIoClass()))
              .addAllUpdate(nriUpdates(sentUpdates))
              .build();
        });
  }

  @Override
  public void postStartContainer(PodSandbox pod, Container container) {
    runtime.put(container);
    event(
        () ->
            call(
                "StartContainer",
                StartContainerRequest.newBuilder().setContainerId(container.getId()).build(),
                requests.containers()::start));
  }

  @Override
  public List<ContainerUpdate> updateContainer(
      PodSandbox pod, Container container, LinuxResources resources) {
    runtime.put(container);
    LinuxContainerResources linux =
        NriToCri.resources(resources).toBuilder()
            .setOomScoreAdj(NriToCri.resources(container).getOomScoreAdj())
            .build();
    UpdateContainerResourcesRequest request =
        UpdateContainerResourcesRequest.newBuilder()
            .setContainerId(container.getId())
            .setLinux(linux)
            .build();
    return answer(
        () -> {
          call("UpdateContainerResources", request, requests.update()::update);
          return updates();
        });
  }

  @Override
  public List<ContainerUpdate> stopContainer(PodSandbox pod, Container container) {
    return answer(
        () -> {
          call(
              "StopContainer",
              StopContainerRequest.newBuilder().setContainerId(container.getId()).build(),
              requests.containers()::stop);
          return updates();
        });
  }

  @Override
  public void removeContainer(PodSandbox pod, Container container) {
    event(
        () -> {
          call(
              "RemoveContainer",
              RemoveContainerRequest.newBuilder().setContainerId(container.getId()).build(),
              requests.containers()::remove);
          runtime.removeContainer(container.getId());
        });
  }

  private static String key(String podSandboxId, String containerName) {
    return podSandboxId + "/" + containerName;
  }

  /** Runs a request whose answer carries the updates it caused. */
  private <T> T answer(Supplier<T> work) {
    answering = true;
    try {
      return work.get();
    } finally {
      answering = false;
      sendPendingUpdates();
    }
  }

  /**
   * Runs an event, which has no answer: the updates it caused go out on their own once the event
   * returned (the runtime may hold its locks until then).
   */
  private void event(Runnable work) {
    answer(
        () -> {
          work.run();
          return null;
        });
  }

  /** Runs {@code request} of CRI method {@code method} through {@code handler} and waits. */
  private <Q, R> R call(
      String method, Q request, BiFunction<Q, CallScope, CompletableFuture<R>> handler) {
    CallScope scope = CallScope.of(method, request);
    try {
      return scope
          .logged(() -> handler.apply(request, scope))
          .get(RuntimeClient.OWN_DEADLINE_SECONDS, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      // The runtime sees the code and text the relay would have answered kubelet with.
      Status refusal = Refusals.status(method, e);
      throw new TtrpcException(
          TtrpcException.Code.of(refusal.getCode().value()),
          String.valueOf(refusal.getDescription()),
          Objects.requireNonNullElse(e.getCause(), e));
    } catch (TimeoutException e) {
      throw new NriException(method + ": the pipeline did not answer in time", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NriException(method + ": interrupted", e);
    }
  }

  /** The updates the pipeline sent, as NRI updates. */
  private List<ContainerUpdate> updates() {
    return nriUpdates(runtime.takeUpdates());
  }

  private static List<ContainerUpdate> nriUpdates(Map<String, LinuxContainerResources> sent) {
    List<ContainerUpdate> out = new ArrayList<>();
    sent.forEach((id, linux) -> out.add(CriToNri.update(id, linux)));
    return out;
  }

  private static CreateContainerRequest withResources(
      CreateContainerRequest request, LinuxContainerResources decided) {
    var config = request.getConfig().toBuilder();
    config.getLinuxBuilder().setResources(decided);
    return request.toBuilder().setConfig(config).build();
  }

  private void updatedOutsideAnswers() {
    if (!answering) {
      sendPendingUpdates();
    }
  }

  private void sendPendingUpdates() {
    try {
      sender.execute(this::sendUpdates);
    } catch (RejectedExecutionException e) {
      LOG.debug("NRI front end closed: updates not sent");
    }
  }

  private void sendUpdates() {
    List<ContainerUpdate> updates = updates();
    if (updates.isEmpty()) {
      return;
    }
    NriPlugin connected = plugin.get();
    if (connected == null) {
      LOG.warn("not connected to NRI: {} container updates not sent", updates.size());
      return;
    }
    try {
      List<ContainerUpdate> failed = connected.updateContainers(updates, List.of());
      for (ContainerUpdate f : failed) {
        LOG.warn("NRI failed to update container {}", f.getContainerId());
      }
    } catch (RuntimeException e) {
      LOG.warn("cannot send {} container updates to NRI: {}", updates.size(), e.getMessage());
    }
  }

  @Override
  public void close() {
    sender.shutdownNow();
  }
}
