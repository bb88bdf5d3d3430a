package io.criresmgr.simulator;

import io.criresmgr.cache.QosClass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * Runs a {@code random} step: seeded random creates of model pods (within the CPU and memory
 * budgets), deletes, and container exits that kubelet restarts, checking the invariants after each
 * operation (the reference's fuzz model, test06, with assertions added).
 */
final class RandomDriver {
  private final RunContext ctx;

  RandomDriver(RunContext ctx) {
    this.ctx = ctx;
  }

  /** Runs the operations; returns the first failure, naming the operation. */
  Optional<String> run(Step.Random step) throws InterruptedException {
    Random random = new Random(step.seed());
    Map<String, PodVars> models = new TreeMap<>(step.pods());
    for (int i = 0; i < step.operations(); i++) {
      String op = operate(random, models, step);
      Optional<String> failed = op.startsWith("!") ? Optional.of(op.substring(1)) : check(step);
      if (failed.isPresent()) {
        return Optional.of(
            "operation " + i + " (" + op.replaceFirst("^!", "") + "): " + failed.get());
      }
    }
    return Optional.empty();
  }

  /** One random operation; its description, prefixed with {@code !} if it failed. */
  private String operate(Random random, Map<String, PodVars> models, Step.Random step) {
    List<String> live = new ArrayList<>(ctx.kubelet.podNames());
    live.retainAll(models.keySet());
    List<String> creatable =
        models.keySet().stream()
            .filter(name -> !live.contains(name) && fits(models, live, name, step))
            .toList();
    int choice = random.nextInt(3);
    try {
      if ((choice == 0 || live.isEmpty()) && !creatable.isEmpty()) {
        String name = creatable.get(random.nextInt(creatable.size()));
        ctx.kubelet.create(spec(models, name));
        return "create " + name;
      }
      if (live.isEmpty()) {
        return "nothing to do";
      }
      String pod = live.get(random.nextInt(live.size()));
      if (choice == 2) {
        List<String> containers = spec(models, pod).containerNames();
        String container = containers.get(random.nextInt(containers.size()));
        ctx.kubelet.exit(container, 0, true);
        return "exit " + container;
      }
      ctx.kubelet.delete(pod);
      return "delete " + pod;
    } catch (KubeletException e) {
      return "!" + e.getMessage();
    }
  }

  /**
   * Whether the live pods and {@code add} stay within the budgets (the reference model's guards).
   */
  private boolean fits(Map<String, PodVars> models, List<String> live, String add, Step.Random s) {
    long cpu = 0;
    long reserved = 0;
    long mem = 0;
    List<String> pods = new ArrayList<>(live);
    pods.add(add);
    for (String name : pods) {
      PodSpec spec = spec(models, name);
      PodSpec.Requirements r = spec.resources();
      long cpus = spec.containers() * Math.max(r.cpuLimit(), r.cpuRequest());
      if (spec.namespace().equals("kube-system")) {
        reserved += cpus;
      } else {
        cpu += cpus;
      }
      mem += spec.containers() * Math.max(r.memoryLimit(), r.memoryRequest());
    }
    return below(cpu, s.maxCpuMilli())
        && below(reserved, s.maxReservedMilli())
        && below(mem, s.maxMemoryBytes());
  }

  private static boolean below(long amount, long max) {
    return max == 0 || amount < max;
  }

  private static PodSpec spec(Map<String, PodVars> models, String name) {
    PodVars model = models.get(name);
    if (model == null) {
      throw new IllegalStateException(
          "no pod model " + name + " (models: " + models.keySet() + ")");
    }
    return PodSpec.resolve(PodVars.DEFAULTS.then(model), name);
  }

  private Optional<String> check(Step.Random step) throws InterruptedException {
    Verify invariants =
        step.invariants()
            .orElse(
                new Verify(
                    Map.of(), List.of(), Optional.empty(), List.of(), Verify.DEFAULT_TIMEOUT));
    Map<String, List<ContainerCheck>> containers = new TreeMap<>(invariants.containers());
    if (step.exclusive()) {
      exclusiveChecks()
          .forEach(
              (name, check) ->
                  containers.merge(
                      name,
                      List.of(check),
                      (a, b) -> java.util.stream.Stream.concat(a.stream(), b.stream()).toList()));
    }
    Verify all =
        new Verify(
            containers,
            invariants.relations(),
            invariants.all(),
            invariants.any(),
            invariants.timeout());
    return new StepRunner(ctx).verify(all, null);
  }

  /** Whole-CPU Guaranteed containers outside kube-system hold that many CPUs alone. */
  private Map<String, ContainerCheck> exclusiveChecks() {
    Map<String, ContainerCheck> checks = new TreeMap<>();
    for (String pod : ctx.kubelet.podNames()) {
      PodSpec spec = ctx.kubelet.pod(pod).orElseThrow();
      long cpu = spec.resources().cpuRequest();
      if (spec.qosClass() != QosClass.GUARANTEED
          || cpu < 1000
          || cpu % 1000 != 0
          || spec.namespace().equals("kube-system")) {
        continue;
      }
      SetCheck own =
          SetCheck.parse(
              Attribute.CPUS,
              LocatedYaml.read(
                  "random", "{count: " + cpu / 1000 + ", minus: " + SetCheck.OTHERS + "}"));
      spec.containerNames()
          .forEach(
              c ->
                  checks.put(
                      c,
                      new ContainerCheck(
                          ContainerCheck.Presence.PRESENT,
                          Map.of(Attribute.CPUS, own),
                          Optional.empty())));
    }
    return checks;
  }
}
