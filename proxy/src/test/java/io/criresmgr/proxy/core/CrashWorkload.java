package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.Container;
import io.criresmgr.api.runtime.v1.ContainerState;
import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.criresmgr.api.runtime.v1.PodSandbox;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RemovePodSandboxRequest;
import io.criresmgr.api.runtime.v1.StartContainerRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.StopPodSandboxRequest;
import io.criresmgr.sim.SimRuntime;
import io.grpc.Channel;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The crash test's kubelet: picks random lifecycle steps that make sense for what the runtime holds
 * (read directly from the runtime, so requests lost in a crash are simply seen or not seen) and
 * sends them through the daemon. Counts stay bounded: at most 3 ready pods, 9 live containers of
 * which 4 exclusive (8 CPUs), and removals grow likelier as exited containers pile up.
 */
final class CrashWorkload {
  /** A lifecycle step. */
  enum Op {
    RUN_POD,
    CREATE_EXCLUSIVE,
    CREATE_SHARED,
    RECREATE,
    START,
    STOP,
    REMOVE,
    EXIT,
    LIST,
    RESIZE,
    STOP_POD,
    REMOVE_POD
  }

  /** Codes that show the daemon failed, not that the workload raced with it. */
  private static final Set<Status.Code> DAEMON_FAILURES =
      Set.of(
          Status.Code.INTERNAL,
          Status.Code.UNKNOWN,
          Status.Code.UNAVAILABLE,
          Status.Code.DEADLINE_EXCEEDED);

  private final Random random;
  private final SimRuntime sim;
  private final Channel runtime;
  private int counter;

  /** A workload choosing with {@code random}, reading the truth from {@code runtime}. */
  CrashWorkload(Random random, SimRuntime sim, Channel runtime) {
    this.random = Objects.requireNonNull(random, "random");
    this.sim = Objects.requireNonNull(sim, "sim");
    this.runtime = Objects.requireNonNull(runtime, "runtime");
  }

  /**
   * Runs {@code count} random steps through {@code relay}, one after the other; returns what each
   * did. Errors a racing kubelet can see are recorded; errors that mean the daemon failed throw.
   */
  List<String> run(Channel relay, int count) throws InterruptedException {
    List<String> done = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      CrashWorld world = CrashWorld.read(runtime);
      done.add(await(issue(relay, world, choose(world))));
    }
    return done;
  }

  /** Sends one random step without waiting for it; {@code creating}: a CreateContainer. */
  CrashCall issueAsync(Channel relay, boolean creating) {
    CrashWorld world = CrashWorld.read(runtime);
    return issue(relay, world, creating ? chooseCreate(world) : choose(world));
  }

  /** Removes exited containers and stopped pods, as kubelet's garbage collection does. */
  List<String> cleanUp(Channel relay) throws InterruptedException {
    CrashWorld world = CrashWorld.read(runtime);
    List<String> done = new ArrayList<>();
    for (Container c : world.inState(ContainerState.CONTAINER_EXITED)) {
      done.add(await(removeContainer(relay, c)));
    }
    for (PodSandbox p : world.stoppedPods()) {
      done.add(await(removePod(relay, p)));
    }
    return done;
  }

  private String await(CrashCall call) throws InterruptedException {
    try {
      call.reply().get(30, TimeUnit.SECONDS);
      return call.description();
    } catch (ExecutionException e) {
      Status status = Status.fromThrowable(e.getCause());
      if (DAEMON_FAILURES.contains(status.getCode())) {
        throw new AssertionError(call.description() + " failed: " + status, e.getCause());
      }
      return call.description() + " -> " + status.getCode();
    } catch (TimeoutException e) {
      throw new AssertionError(call.description() + " got no answer", e);
    }
  }

  private Op chooseCreate(CrashWorld w) {
    Map<Op, Double> weights = weights(w);
    weights.keySet().retainAll(Set.of(Op.CREATE_EXCLUSIVE, Op.CREATE_SHARED, Op.RECREATE));
    return weights.values().stream().allMatch(v -> v == 0) ? choose(w) : pick(weights);
  }

  private Op choose(CrashWorld w) {
    return pick(weights(w));
  }

  private Map<Op, Double> weights(CrashWorld w) {
    int live = w.live().size();
    boolean canCreate = !w.readyPods().isEmpty() && live < 9;
    int exited = w.inState(ContainerState.CONTAINER_EXITED).size();
    Map<Op, Double> m = new EnumMap<>(Op.class);
    m.put(Op.RUN_POD, w.readyPods().isEmpty() ? 10.0 : w.readyPods().size() < 3 ? 2.0 : 0.0);
    m.put(Op.CREATE_EXCLUSIVE, canCreate && w.liveExclusive() < 4 ? 3.0 : 0.0);
    m.put(Op.CREATE_SHARED, canCreate ? 3.0 : 0.0);
    m.put(Op.RECREATE, canCreate && recreatable(w).isPresent() ? 1.5 : 0.0);
    m.put(Op.START, startable(w).isEmpty() ? 0.0 : 4.0);
    boolean running = !w.inState(ContainerState.CONTAINER_RUNNING).isEmpty();
    m.put(Op.STOP, running ? 2.0 : 0.0);
    m.put(Op.EXIT, running ? 1.0 : 0.0);
    m.put(Op.REMOVE, exited == 0 ? 0.0 : 0.5 * exited);
    m.put(Op.LIST, 1.0);
    m.put(Op.RESIZE, sharedLive(w).isEmpty() ? 0.0 : 1.0);
    m.put(Op.STOP_POD, w.readyPods().size() > 1 ? 0.3 : 0.0);
    m.put(Op.REMOVE_POD, 1.5 * w.stoppedPods().size() + (w.readyPods().size() > 2 ? 0.3 : 0.0));
    return m;
  }

  private Op pick(Map<Op, Double> weights) {
    double total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    double r = random.nextDouble() * total;
    for (Map.Entry<Op, Double> e : weights.entrySet()) {
      r -= e.getValue();
      if (r < 0) {
        return e.getKey();
      }
    }
    return Op.LIST;
  }

  private CrashCall issue(Channel relay, CrashWorld w, Op op) {
    return switch (op) {
      case RUN_POD -> runPod(relay);
      case CREATE_EXCLUSIVE -> create(relay, w, CrashRequests.EXCLUSIVE);
      case CREATE_SHARED -> create(relay, w, CrashRequests.SHARED);
      case RECREATE -> recreate(relay, w, recreatable(w).orElseThrow());
      case START -> start(relay, any(startable(w)));
      case STOP -> stop(relay, any(w.inState(ContainerState.CONTAINER_RUNNING)));
      case REMOVE -> removeContainer(relay, any(w.inState(ContainerState.CONTAINER_EXITED)));
      case EXIT -> exit(relay, any(w.inState(ContainerState.CONTAINER_RUNNING)));
      case LIST -> list(relay, "ListContainers");
      case RESIZE -> resize(relay, any(sharedLive(w)));
      case STOP_POD -> stopPod(relay, any(w.readyPods()));
      case REMOVE_POD ->
          removePod(relay, any(w.stoppedPods().isEmpty() ? w.readyPods() : w.stoppedPods()));
    };
  }

  private <T> T any(List<T> items) {
    return items.get(random.nextInt(items.size()));
  }

  private static List<Container> sharedLive(CrashWorld w) {
    return w.holding().stream()
        .filter(c -> !CrashRequests.isExclusive(c.getMetadata().getName()))
        .toList();
  }

  /** Created containers of ready pods (a stopped pod's containers cannot start). */
  private static List<Container> startable(CrashWorld w) {
    return w.holding().stream()
        .filter(c -> c.getState() == ContainerState.CONTAINER_CREATED)
        .toList();
  }

  /** An exited container in a ready pod with no live namesake: kubelet would restart it. */
  private static java.util.Optional<Container> recreatable(CrashWorld w) {
    return w.inState(ContainerState.CONTAINER_EXITED).stream()
        .filter(c -> w.readyPod(c.getPodSandboxId()).isPresent())
        .filter(c -> !w.hasLive(c.getPodSandboxId(), c.getMetadata().getName()))
        .filter(
            c ->
                w.lastAttempt(c.getPodSandboxId(), c.getMetadata().getName())
                    == c.getMetadata().getAttempt())
        .findFirst();
  }

  private CrashCall runPod(Channel relay) {
    int n = counter++;
    return CrashCall.send(
        relay,
        "RunPodSandbox pod-" + n,
        (s, f) -> s.runPodSandbox(CrashRequests.runPod(n), CrashCall.completing(f)));
  }

  private CrashCall create(Channel relay, CrashWorld w, String kind) {
    PodSandbox pod = any(w.readyPods());
    String name = kind + counter++;
    return CrashCall.send(
        relay,
        "CreateContainer " + podName(pod) + "/" + name,
        (s, f) -> s.createContainer(CrashRequests.create(pod, name, 0), CrashCall.completing(f)));
  }

  private CrashCall recreate(Channel relay, CrashWorld w, Container old) {
    PodSandbox pod = w.readyPod(old.getPodSandboxId()).orElseThrow();
    String name = old.getMetadata().getName();
    int attempt = old.getMetadata().getAttempt() + 1;
    return CrashCall.send(
        relay,
        "CreateContainer " + podName(pod) + "/" + name + " attempt " + attempt,
        (s, f) ->
            s.createContainer(CrashRequests.create(pod, name, attempt), CrashCall.completing(f)));
  }

  private CrashCall start(Channel relay, Container c) {
    var request = StartContainerRequest.newBuilder().setContainerId(c.getId()).build();
    return CrashCall.send(
        relay,
        "StartContainer " + name(c),
        (s, f) -> s.startContainer(request, CrashCall.completing(f)));
  }

  private CrashCall stop(Channel relay, Container c) {
    var request = StopContainerRequest.newBuilder().setContainerId(c.getId()).build();
    return CrashCall.send(
        relay,
        "StopContainer " + name(c),
        (s, f) -> s.stopContainer(request, CrashCall.completing(f)));
  }

  private CrashCall removeContainer(Channel relay, Container c) {
    var request = RemoveContainerRequest.newBuilder().setContainerId(c.getId()).build();
    return CrashCall.send(
        relay,
        "RemoveContainer " + name(c),
        (s, f) -> s.removeContainer(request, CrashCall.completing(f)));
  }

  /** The container exits behind the daemon's back; kubelet's next listing shows it. */
  private CrashCall exit(Channel relay, Container c) {
    sim.exitContainer(c.getId(), 1);
    return list(relay, "exit of " + name(c) + ", ListContainers");
  }

  private CrashCall list(Channel relay, String description) {
    var request = ListContainersRequest.getDefaultInstance();
    return CrashCall.send(
        relay, description, (s, f) -> s.listContainers(request, CrashCall.completing(f)));
  }

  private CrashCall resize(Channel relay, Container c) {
    long shares = 256L * (1 + random.nextInt(3));
    var request = CrashRequests.resize(c.getId(), shares);
    return CrashCall.send(
        relay,
        "UpdateContainerResources " + name(c) + " shares " + shares,
        (s, f) -> s.updateContainerResources(request, CrashCall.completing(f)));
  }

  private CrashCall stopPod(Channel relay, PodSandbox p) {
    var request = StopPodSandboxRequest.newBuilder().setPodSandboxId(p.getId()).build();
    return CrashCall.send(
        relay,
        "StopPodSandbox " + podName(p),
        (s, f) -> s.stopPodSandbox(request, CrashCall.completing(f)));
  }

  private CrashCall removePod(Channel relay, PodSandbox p) {
    var request = RemovePodSandboxRequest.newBuilder().setPodSandboxId(p.getId()).build();
    return CrashCall.send(
        relay,
        "RemovePodSandbox " + podName(p),
        (s, f) -> s.removePodSandbox(request, CrashCall.completing(f)));
  }

  private static String podName(PodSandbox p) {
    return p.getMetadata().getName();
  }

  private static String name(Container c) {
    return c.getMetadata().getName() + "(" + c.getId().substring(0, 6) + ")";
  }
}
