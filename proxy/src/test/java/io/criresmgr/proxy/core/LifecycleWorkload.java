package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.ListContainersRequest;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Kubelet-like container lifecycles from several threads, each in a pod of its own: random creates
 * (at most two live containers per thread), starts, stops and removes, counted up to a total, mixed
 * with containers exiting in the runtime and unfiltered listings (not counted). A create refused
 * with RESOURCE_EXHAUSTED is expected when the CPUs run out; every other failure is recorded.
 */
final class LifecycleWorkload {
  private final PipelineHarness h;
  private final int threads;
  private final int total;
  private final AtomicInteger operations = new AtomicInteger();
  private final AtomicInteger created = new AtomicInteger();
  private final AtomicInteger exhausted = new AtomicInteger();
  private final AtomicInteger exits = new AtomicInteger();
  private final Queue<String> unexpected = new ConcurrentLinkedQueue<>();
  private final Queue<String> remaining = new ConcurrentLinkedQueue<>();

  LifecycleWorkload(PipelineHarness h, int threads, int total) {
    this.h = h;
    this.threads = threads;
    this.total = total;
  }

  /** A container a worker tracks; its state as the worker last made it. */
  private static final class Tracked {
    final String id;
    String state = "CREATED";

    Tracked(String id) {
      this.id = id;
    }
  }

  /** Runs the workers on {@code pool} until {@link #total} operations are done. */
  void run(ExecutorService pool) throws Exception {
    List<String> pods = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      pods.add(h.runPod("worker" + i));
    }
    List<Future<?>> workers = new ArrayList<>();
    for (int i = 0; i < threads; i++) {
      String pod = pods.get(i);
      long seed = Long.getLong("itests.seed", 1000L) + i;
      workers.add(pool.submit(() -> work(pod, new Random(seed))));
    }
    for (Future<?> f : workers) {
      f.get(60, TimeUnit.SECONDS);
    }
  }

  private void work(String pod, Random random) {
    List<Tracked> mine = new ArrayList<>();
    int names = 0;
    while (operations.getAndIncrement() < total) {
      extra(mine, random);
      List<String> ops = enabled(mine);
      String op = ops.get(random.nextInt(ops.size()));
      try {
        switch (op) {
          case "create" -> create(pod, "c" + names++, mine);
          case "start" -> pick(mine, "CREATED", random).start(h);
          case "stop" -> pick(mine, "RUNNING", random).stop(h);
          default -> {
            Tracked t = mine.get(random.nextInt(mine.size()));
            h.remove(t.id);
            mine.remove(t);
          }
        }
      } catch (StatusRuntimeException e) {
        unexpected.add(op + ": " + e.getStatus());
      }
    }
    mine.forEach(t -> remaining.add(t.id));
  }

  private void create(String pod, String name, List<Tracked> mine) {
    try {
      mine.add(new Tracked(h.create(pod, name)));
      created.incrementAndGet();
    } catch (StatusRuntimeException e) {
      if (e.getStatus().getCode() != Status.Code.RESOURCE_EXHAUSTED) {
        throw e;
      }
      exhausted.incrementAndGet();
    }
  }

  /** Now and then a container exits in the runtime or kubelet lists every container. */
  private void extra(List<Tracked> mine, Random random) {
    int dice = random.nextInt(10);
    if (dice == 0) {
      for (Tracked t : mine) {
        if (t.state.equals("RUNNING")) {
          h.runtime().exitContainer(t.id, 1);
          t.state = "EXITED";
          exits.incrementAndGet();
          return;
        }
      }
    } else if (dice == 1) {
      h.relay().listContainers(ListContainersRequest.getDefaultInstance());
    }
  }

  /** Kubelet stops running containers only: see the report on stopping created ones. */
  private static List<String> enabled(List<Tracked> mine) {
    List<String> ops = new ArrayList<>();
    if (mine.stream().filter(t -> !t.state.equals("EXITED")).count() < 2) {
      ops.add("create");
    }
    if (mine.stream().anyMatch(t -> t.state.equals("CREATED"))) {
      ops.add("start");
    }
    if (mine.stream().anyMatch(t -> t.state.equals("RUNNING"))) {
      ops.add("stop");
    }
    if (!mine.isEmpty()) {
      ops.add("remove");
    }
    return ops;
  }

  private static Action pick(List<Tracked> mine, String state, Random random) {
    List<Tracked> candidates = mine.stream().filter(t -> t.state.equals(state)).toList();
    Tracked t = candidates.get(random.nextInt(candidates.size()));
    return new Action(t);
  }

  /** Start or stop of one tracked container. */
  private record Action(Tracked t) {
    void start(PipelineHarness h) {
      h.start(t.id);
      t.state = "RUNNING";
    }

    void stop(PipelineHarness h) {
      h.stop(t.id);
      t.state = "EXITED";
    }
  }

  /** Removes every container the workers left behind, through the daemon. */
  void removeAll() {
    for (String id : remaining) {
      h.remove(id);
    }
    remaining.clear();
  }

  /** Counted operations done (at most the total). */
  int operations() {
    return Math.min(operations.get(), total);
  }

  /** Successful creates. */
  int created() {
    return created.get();
  }

  /** Failures other than an exhausted create. */
  List<String> unexpected() {
    return List.copyOf(unexpected);
  }

  @Override
  public String toString() {
    return "workload: "
        + operations()
        + " operations, "
        + created.get()
        + " created, "
        + exhausted.get()
        + " refused for lack of CPUs, "
        + exits.get()
        + " exited in the runtime";
  }
}
