package io.criresmgr.proxy.scenario;

import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Quantities;
import io.criresmgr.proxy.scenario.PodVars.Var;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;

/**
 * A pod to create, with its variables resolved: containers {@code <name>c<i>}, init containers
 * {@code <name>c<i>i}, each with the same requests and limits (0: not set).
 *
 * @param name pod name
 * @param namespace namespace
 * @param template the template the resources came from
 * @param containers number of containers ({@code CONTCOUNT})
 * @param initContainers number of init containers ({@code ICONTCOUNT})
 * @param resources every container's requests and limits, after Kubernetes' defaulting
 * @param annotations pod annotations
 * @param labels pod labels
 * @param containerAnnotations CRI annotations by container name
 * @param names container names, in start order
 */
record PodSpec(
    String name,
    String namespace,
    Template template,
    int containers,
    int initContainers,
    Requirements resources,
    Map<String, String> annotations,
    Map<String, String> labels,
    Map<String, Map<String, String>> containerAnnotations,
    List<String> names) {

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
    if (names.size() != containers) {
      throw new IllegalArgumentException(
          "containers: " + names.size() + " names for " + containers + " containers");
    }
  }

  /** Resolves {@code vars} (complete, i.e. defaults merged in) for a pod named {@code name}. */
  static PodSpec resolve(PodVars vars, String name) {
    Template template = Template.parse(vars.get(Var.TEMPLATE).orElse("guaranteed"));
    int count = count(vars, Var.CONTCOUNT);
    List<String> names =
        vars.containerNames()
            .orElseGet(() -> IntStream.range(0, count).mapToObj(i -> name + "c" + i).toList());
    return new PodSpec(
        name,
        vars.get(Var.NAMESPACE).orElse("default"),
        template,
        names.size(),
        count(vars, Var.ICONTCOUNT),
        requirements(template, vars).defaulted(),
        vars.annotations().orElse(Map.of()),
        vars.labels().orElse(Map.of()),
        vars.containerAnnotations().orElse(Map.of()),
        names);
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
    if (resources.isEmpty()) {
      return QosClass.BEST_EFFORT;
    }
    return resources.isGuaranteed() ? QosClass.GUARANTEED : QosClass.BURSTABLE;
  }

  /** Names of the init containers, in start order. */
  List<String> initContainerNames() {
    return IntStream.range(0, initContainers).mapToObj(i -> name + "c" + i + "i").toList();
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
