package io.criresmgr.policy.topologyaware;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import io.criresmgr.cache.affinity.Glob;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.MemoryType;
import io.criresmgr.policy.topologyaware.Annotations.Found;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.Level;
import io.criresmgr.policy.topologyaware.TopologyAwareOptions.SharedCpus;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Derives a container's {@link CpuRequest} and {@link MemoryRequest} from its resources, QoS class,
 * effective annotations and the policy options (docs/policy/topology-aware.md, "How a request
 * becomes a grant": cri-resmgr's derivation with the nri-plugins additions {@code cpu.preserve},
 * {@code memory.preserve}, {@code require-isolated-cpus}, {@code prefer-cpu-priority}, {@code
 * hide-hyperthreads}, Burstable limits). Every annotation of ours that applies to the container is
 * checked, even one the result does not depend on, so a typo fails the request instead of lying
 * dormant.
 */
final class Preferences {
  private static final String KUBE_SYSTEM = "kube-system";

  private Preferences() {}

  /**
   * A boolean preference.
   *
   * @param value the preference
   * @param explicit whether an annotation (rather than the options) gave it
   * @param required whether it came from {@code require-isolated-cpus}
   */
  record Pref(boolean value, boolean explicit, boolean required) {}

  /**
   * The CPU request.
   *
   * @throws io.criresmgr.policy.PolicyException naming the annotation and the accepted values if
   *     one of ours is malformed
   */
  static CpuRequest cpu(Container container, Pod pod, TopologyAwareOptions options) {
    UnknownAnnotations.report(pod);
    String name = container.name();
    CpuKind kind = kind(container, pod, options);
    Pref isolated = isolated(pod, name, options);
    Pref shared = shared(pod, name, options);
    CpuPriority priority = priority(pod, name, options);
    boolean hide = Annotations.bool(pod, name, Annotations.HIDE_HYPERTHREADS).orElse(false);
    unlimitedBurstable(pod, name, options.unlimitedBurstable()); // checked even where unused
    QosClass qos = container.qosClass();
    long request =
        qos == QosClass.BEST_EFFORT ? 0 : container.adjustedResources().cpuRequestMilli();
    if (kind != CpuKind.NORMAL || qos != QosClass.GUARANTEED) {
      return new CpuRequest(kind, 0, request, false, false, priority, hide, limit(container));
    }
    return guaranteed(request, isolated, shared, options.preferSharedCpus(), priority, hide);
  }

  // Steps 1-2 of docs/policy/topology-aware.md, "How a request becomes a grant"; cpu.preserve
  // (nri-plugins) comes first.
  private static CpuKind kind(Container container, Pod pod, TopologyAwareOptions options) {
    String name = container.name();
    boolean preserve = Annotations.bool(pod, name, Annotations.CPU_PRESERVE).orElse(false);
    Optional<Boolean> reserved = Annotations.bool(pod, name, Annotations.PREFER_RESERVED_CPUS);
    if (preserve) {
      return CpuKind.PRESERVE;
    }
    // An explicit prefer-reserved-cpus=false opts a reserved-namespace container out.
    return reserved.orElse(reservedNamespace(container.namespace(), options))
        ? CpuKind.RESERVED
        : CpuKind.NORMAL;
  }

  // Guaranteed: the request (= limit); Burstable: the limit or UNLIMITED; BestEffort: 0.
  private static long limit(Container container) {
    Resources r = container.adjustedResources();
    return switch (container.qosClass()) {
      case GUARANTEED -> r.cpuRequestMilli();
      case BURSTABLE -> r.cpuLimitMilli() > 0 ? r.cpuLimitMilli() : CpuRequest.UNLIMITED;
      case BEST_EFFORT -> 0;
    };
  }

  // Step 3 there: exclusive, mixed or shared for a Guaranteed container.
  private static CpuRequest guaranteed(
      long request,
      Pref isolated,
      Pref shared,
      SharedCpus preferShared,
      CpuPriority priority,
      boolean hide) {
    int cores = (int) (request / 1000);
    long fraction = request % 1000;
    // An annotation asking for isolated CPUs opts out of PreferSharedCPUs: true.
    boolean wantsIsolated = isolated.explicit() && isolated.value();
    SharedCpus option =
        preferShared == SharedCpus.ALL && wantsIsolated ? SharedCpus.NONE : preferShared;
    if (sharedOnly(cores, fraction, shared, option)) {
      return new CpuRequest(CpuKind.NORMAL, 0, request, false, false, priority, hide, request);
    }
    // A single core is as good isolated as not; several need an isolation-aware workload.
    boolean isolate = cores == 1 ? isolated.value() : isolated.value() && isolated.explicit();
    boolean required = isolate && isolated.required();
    return new CpuRequest(
        CpuKind.NORMAL, cores, fraction, isolate, required, priority, hide, request);
  }

  private static boolean sharedOnly(int cores, long fraction, Pref shared, SharedCpus option) {
    if (cores == 0) {
      return true;
    }
    if (cores >= 2 && fraction > 0) {
      // Mixed only if annotated prefer-shared-cpus=false.
      return shared.value() || !shared.explicit();
    }
    if (shared.explicit()) {
      return shared.value();
    }
    return option == SharedCpus.ALL || (fraction > 0 && option == SharedCpus.FRACTIONAL);
  }

  /** Whether {@code namespace} is {@code kube-system} or matches a reserved pool namespace. */
  static boolean reservedNamespace(String namespace, TopologyAwareOptions options) {
    return namespace.equals(KUBE_SYSTEM)
        || options.reservedPoolNamespaces().stream().anyMatch(p -> Glob.matches(p, namespace));
  }

  // prefer- vs require-isolated-cpus: the narrower scope wins, the strict one on a tie.
  static Pref isolated(Pod pod, String name, TopologyAwareOptions options) {
    Optional<Found> strict = Annotations.effective(pod, name, Annotations.REQUIRE_ISOLATED_CPUS);
    Optional<Found> soft = Annotations.effective(pod, name, Annotations.PREFER_ISOLATED_CPUS);
    boolean strictValue = strict.map(Annotations::bool).orElse(false);
    boolean softValue = soft.map(Annotations::bool).orElse(false);
    if (strict.isPresent()
        && (soft.isEmpty() || strict.get().scope().compareTo(soft.get().scope()) <= 0)) {
      return new Pref(strictValue, true, true);
    }
    if (soft.isPresent()) {
      return new Pref(softValue, true, false);
    }
    return Annotations.deprecatedBool(pod, name, Annotations.PREFER_ISOLATED_CPUS)
        .map(v -> new Pref(v, true, false))
        .orElse(new Pref(options.preferIsolatedCpus(), false, false));
  }

  static Pref shared(Pod pod, String name, TopologyAwareOptions options) {
    Optional<Boolean> value = Annotations.bool(pod, name, Annotations.PREFER_SHARED_CPUS);
    if (value.isEmpty()) {
      value = Annotations.deprecatedBool(pod, name, Annotations.PREFER_SHARED_CPUS);
    }
    return value
        .map(v -> new Pref(v, true, false))
        .orElse(new Pref(options.preferSharedCpus() != SharedCpus.NONE, false, false));
  }

  /**
   * The pool level of a Burstable container without a CPU limit: the effective {@code
   * unlimited-burstable} annotation, else {@code option} (the {@code UnlimitedBurstable} option).
   *
   * @throws io.criresmgr.policy.PolicyException if the annotation is not {@code system}, {@code
   *     package}, {@code die} or {@code numa}
   */
  static Level unlimitedBurstable(Pod pod, String name, Level option) {
    Optional<Found> found = Annotations.effective(pod, name, Annotations.UNLIMITED_BURSTABLE);
    if (found.isEmpty()) {
      return option;
    }
    String value = found.get().value().strip().toLowerCase(Locale.ROOT);
    for (Level l : Level.values()) {
      if (l.label().equals(value)) {
        return l;
      }
    }
    throw found.get().invalid("expected system, package, die or numa");
  }

  private static CpuPriority priority(Pod pod, String name, TopologyAwareOptions options) {
    Optional<Found> found = Annotations.effective(pod, name, Annotations.PREFER_CPU_PRIORITY);
    if (found.isEmpty()) {
      return options.defaultCpuPriority();
    }
    String value = found.get().value().strip().toLowerCase(Locale.ROOT);
    if (value.equals("default")) {
      return options.defaultCpuPriority();
    }
    for (CpuPriority p : CpuPriority.values()) {
      if (p.name().toLowerCase(Locale.ROOT).equals(value)) {
        return p;
      }
    }
    throw found.get().invalid("expected high, normal, low, none or default");
  }

  /**
   * The memory request; {@code present} are the memory types the node has.
   *
   * @throws io.criresmgr.policy.PolicyException naming the annotation and the accepted values if
   *     one of ours is malformed
   * @throws IllegalArgumentException if {@code present} is empty
   */
  static MemoryRequest memory(
      Container container, Pod pod, TopologyAwareOptions options, Set<MemoryType> present) {
    if (present.isEmpty()) {
      throw new IllegalArgumentException("the node has no memory types");
    }
    String name = container.name();
    Set<MemoryType> types = MemoryAnnotations.types(pod, name, present);
    Duration coldStart = MemoryAnnotations.coldStart(pod, name);
    boolean preserve = Annotations.bool(pod, name, Annotations.MEMORY_PRESERVE).orElse(false);
    if (!types.contains(MemoryType.DRAM) || !types.contains(MemoryType.PMEM)) {
      coldStart = Duration.ZERO; // cold start moves memory from PMEM to DRAM: needs both
    }
    return new MemoryRequest(types, bytes(container), limitBytes(container), coldStart, preserve);
  }

  // Guaranteed: the limit; Burstable: the request (nri-plugins; cri-resmgr took the limit if set);
  // BestEffort: nothing.
  private static long bytes(Container container) {
    Resources r = container.adjustedResources();
    return switch (container.qosClass()) {
      case GUARANTEED -> r.memoryLimitBytes();
      case BURSTABLE -> r.memoryRequestBytes();
      case BEST_EFFORT -> 0;
    };
  }

  // The memory limit, 0 if none (BestEffort: none that matters for placement).
  private static long limitBytes(Container container) {
    return container.qosClass() == QosClass.BEST_EFFORT
        ? 0
        : container.adjustedResources().memoryLimitBytes();
  }
}
