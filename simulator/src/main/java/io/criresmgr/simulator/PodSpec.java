package io.criresmgr.simulator;

import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Quantities;
import io.criresmgr.simulator.PodVars.Var;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * A pod to create, with its variables resolved: containers {@code <name>c<i>}, init containers
 * {@code <name>c<i>i}, each with the same requests and limits (0: not set), unless {@code
 * CPUREQLIM} / {@code INITCPUREQLIM} give each its own CPU request and limit (the reference's
 * multi-container template: one word {@code R-L} or {@code R} per container, no memory). The first
 * {@code SIDECARCOUNT} init containers are native sidecars ({@code restartPolicy: Always}): they
 * keep running.
 *
 * @param name pod name
 * @param namespace namespace
 * @param template the template the resources came from
 * @param containers number of containers ({@code CONTCOUNT})
 * @param initContainers number of init containers ({@code ICONTCOUNT})
 * @param sidecars how many of the first init containers are sidecars ({@code SIDECARCOUNT})
 * @param resources every container's requests and limits, after Kubernetes' defaulting
 * @param annotations pod annotations
 * @param labels pod labels
 * @param containerAnnotations CRI annotations by container name
 * @param names container names, in start order
 * @param perContainer requirements of containers (and init containers) that have their own
 * @param devices host paths of the devices each container (not init container) gets
 * @param mounts host paths each container (not init container) mounts writable
 */
record PodSpec(
    String name,
    String namespace,
    Template template,
    int containers,
    int initContainers,
    int sidecars,
    Requirements resources,
    Map<String, String> annotations,
    Map<String, String> labels,
    Map<String, Map<String, String>> containerAnnotations,
    List<String> names,
    Map<String, Requirements> perContainer,
    List<String> devices,
    List<String> mounts) {

  /**
   * A container's requests and limits in milli-CPUs and bytes; 0 is not set.
   *
   * @param cpuRequest CPU request
   * @param cpuLimit CPU limit
   * @param memoryRequest memory request
   * @param memoryLimit memory limit
   */
  record Requirements(long cpuRequest, long cpuLimit, long memoryRequest, long memoryLimit) {
    /** As Kubernetes defaults them: a limit without a request makes the request equal to it. */
    Requirements defaulted() {
      return new Requirements(
          cpuRequest == 0 ? cpuLimit : cpuRequest,
          cpuLimit,
          memoryRequest == 0 ? memoryLimit : memoryRequest,
          memoryLimit);
    }

    boolean isEmpty() {
      return cpuRequest == 0 && cpuLimit == 0 && memoryRequest == 0 && memoryLimit == 0;
    }

    boolean isGuaranteed() {
      return cpuLimit > 0
          && memoryLimit > 0
          && cpuRequest == cpuLimit
          && memoryRequest == memoryLimit;
    }
  }

  /** Copies the maps. */
  PodSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(resources, "resources");
    annotations = Map.copyOf(annotations);
    labels = Map.copyOf(labels);
    containerAnnotations = Map.copyOf(containerAnnotations);
    names = List.copyOf(names);
    perContainer = Map.copyOf(perContainer);
    devices = List.copyOf(devices);
    mounts = List.copyOf(mounts);
    if (names.size() != containers) {
      throw new IllegalArgumentException(
          "containers: " + names.size() + " names for " + containers + " containers");
    }
    if (sidecars > initContainers) {
      throw new IllegalArgumentException(
          "sidecarcount: "
              + sidecars
              + " sidecars but only "
              + initContainers
              + " init containers");
    }
  }

  /** Resolves {@code vars} (complete, i.e. defaults merged in) for a pod named {@code name}. */
  static PodSpec resolve(PodVars vars, String name) {
    Template template = Template.parse(vars.get(Var.TEMPLATE).orElse("guaranteed"));
    List<Requirements> own = vars.get(Var.CPUREQLIM).map(PodSpec::cpuWords).orElse(List.of());
    List<Requirements> ownInit =
        vars.get(Var.INITCPUREQLIM).map(PodSpec::cpuWords).orElse(List.of());
    int count = own.isEmpty() ? count(vars, Var.CONTCOUNT) : own.size();
    List<String> names =
        vars.containerNames()
            .orElseGet(() -> IntStream.range(0, count).mapToObj(i -> name + "c" + i).toList());
    int inits = ownInit.isEmpty() ? count(vars, Var.ICONTCOUNT) : ownInit.size();
    Map<String, Requirements> perContainer = new HashMap<>();
    for (int i = 0; i < own.size() && i < names.size(); i++) {
      perContainer.put(names.get(i), own.get(i));
    }
    for (int i = 0; i < ownInit.size(); i++) {
      perContainer.put(initName(name, i), ownInit.get(i));
    }
    return new PodSpec(
        name,
        vars.get(Var.NAMESPACE).orElse("default"),
        template,
        names.size(),
        inits,
        count(vars, Var.SIDECARCOUNT),
        requirements(template, vars).defaulted(),
        vars.annotations().orElse(Map.of()),
        vars.labels().orElse(Map.of()),
        vars.containerAnnotations().orElse(Map.of()),
        names,
        perContainer,
        vars.devices().orElse(List.of()),
        vars.mounts().orElse(List.of()));
  }

  /**
   * Parses {@code CPUREQLIM}-style words: {@code "3 100m-200m"} is one container requesting and
   * limited to 3 CPUs and one requesting 100m, limited to 200m.
   *
   * @throws IllegalArgumentException naming the word that is not a CPU quantity
   */
  static List<Requirements> cpuWords(String text) {
    List<Requirements> out = new ArrayList<>();
    for (String word : text.trim().split("\\s+", -1)) {
      int dash = word.indexOf('-');
      long request = Quantities.parseMilli(dash < 0 ? word : word.substring(0, dash));
      long limit = dash < 0 ? request : Quantities.parseMilli(word.substring(dash + 1));
      out.add(new Requirements(request, limit, 0, 0).defaulted());
    }
    return List.copyOf(out);
  }

  /** The requests and limits of container (or init container) {@code container}. */
  Requirements resources(String container) {
    return perContainer.getOrDefault(container, resources);
  }

  private static Requirements requirements(Template template, PodVars vars) {
    return switch (template) {
      case GUARANTEED ->
          new Requirements(
              milli(vars, Var.CPU),
              milli(vars, Var.CPU),
              bytes(vars, Var.MEM),
              bytes(vars, Var.MEM));
      case BURSTABLE ->
          new Requirements(
              milli(vars, Var.CPUREQ),
              milli(vars, Var.CPULIM),
              bytes(vars, Var.MEMREQ),
              bytes(vars, Var.MEMLIM));
      case BESTEFFORT -> new Requirements(0, 0, 0, 0);
    };
  }

  /** The pod's QoS class, as Kubernetes derives it from its containers' resources. */
  QosClass qosClass() {
    List<Requirements> all =
        Stream.concat(initContainerNames().stream(), names.stream()).map(this::resources).toList();
    if (all.stream().allMatch(Requirements::isEmpty)) {
      return QosClass.BEST_EFFORT;
    }
    return all.stream().allMatch(Requirements::isGuaranteed)
        ? QosClass.GUARANTEED
        : QosClass.BURSTABLE;
  }

  /** Names of the init containers, in start order. */
  List<String> initContainerNames() {
    return IntStream.range(0, initContainers).mapToObj(i -> initName(name, i)).toList();
  }

  /** Whether init container {@code name} is a native sidecar: it keeps running. */
  boolean isSidecar(String name) {
    return initContainerNames().subList(0, sidecars).contains(name);
  }

  private static String initName(String pod, int i) {
    return pod + "c" + i + "i";
  }

  /** Names of the containers, in start order. */
  List<String> containerNames() {
    return names;
  }

  private static int count(PodVars vars, Var var) {
    return Integer.parseInt(vars.get(var).orElse("0"));
  }

  private static long milli(PodVars vars, Var var) {
    return vars.get(var).map(Quantities::parseMilli).orElse(0L);
  }

  private static long bytes(PodVars vars, Var var) {
    return vars.get(var).map(Quantities::parseBytes).orElse(0L);
  }
}
