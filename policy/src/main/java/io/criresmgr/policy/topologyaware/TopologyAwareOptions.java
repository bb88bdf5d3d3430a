package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.affinity.Glob;
import io.criresmgr.policy.OptionsReader;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The options of section {@code policy.topology-aware} (cri-resmgr spellings; the camelCase
 * spellings of nri-plugins are accepted too, as keys match case-insensitively).
 *
 * @param pinCpu {@code PinCPU}: set cpusets and CPU shares
 * @param pinMemory {@code PinMemory}: set {@code cpuset.mems}
 * @param preferIsolatedCpus {@code PreferIsolatedCPUs}
 * @param preferSharedCpus {@code PreferSharedCPUs}: which Guaranteed containers share by default
 * @param reservedPoolNamespaces {@code ReservedPoolNamespaces}: namespace globs using reserved CPUs
 *     ({@code kube-system} always does)
 * @param colocatePods {@code ColocatePods}
 * @param colocateNamespaces {@code ColocateNamespaces}
 * @param defaultCpuPriority {@code DefaultCPUPriority}: CPU priority of unannotated containers
 * @param unlimitedBurstable {@code UnlimitedBurstable}: the pool level Burstable containers without
 *     a CPU limit prefer (nri-plugins' option and default)
 * @param cpuClasses {@code ReservedPoolCPUClass}, {@code SharedPoolCPUClass} and {@code
 *     DefaultExclusiveCPUClass}: the CPU classes (cpu controller) of the CPUs
 */
public record TopologyAwareOptions(
    boolean pinCpu,
    boolean pinMemory,
    boolean preferIsolatedCpus,
    SharedCpus preferSharedCpus,
    List<String> reservedPoolNamespaces,
    boolean colocatePods,
    boolean colocateNamespaces,
    CpuPriority defaultCpuPriority,
    Level unlimitedBurstable,
    CpuClassNames cpuClasses)
    implements PolicyOptions {
  /** The defaults of cri-resmgr. */
  public static final TopologyAwareOptions DEFAULTS =
      new TopologyAwareOptions(
          true,
          true,
          true,
          SharedCpus.NONE,
          List.of("kube-system"),
          false,
          false,
          CpuPriority.NONE,
          Level.PACKAGE,
          CpuClassNames.NONE);

  /** Option keys, in the order error messages list them. */
  public static final List<String> KEYS =
      List.of(
          "PinCPU",
          "PinMemory",
          "PreferIsolatedCPUs",
          "PreferSharedCPUs",
          "ReservedPoolNamespaces",
          "ColocatePods",
          "ColocateNamespaces",
          "DefaultCPUPriority",
          "UnlimitedBurstable",
          "ReservedPoolCPUClass",
          "SharedPoolCPUClass",
          "DefaultExclusiveCPUClass");

  private static final String POLICY = "topology-aware";
  private static final List<String> REMOVED =
      List.of("DirtyBitScanPeriod", "PageMovePeriod", "PageMoveCount");
  private static final Map<String, CpuPriority> PRIORITIES =
      Map.of(
          "high", CpuPriority.HIGH,
          "normal", CpuPriority.NORMAL,
          "low", CpuPriority.LOW,
          "none", CpuPriority.NONE);

  /**
   * {@code PreferSharedCPUs}: which Guaranteed containers that could get exclusive CPUs share the
   * pool's CPUs instead, unless annotated {@code prefer-shared-cpus} (which always decides).
   */
  public enum SharedCpus {
    /** {@code false}: none (2 CPUs or more with a fraction share anyway). */
    NONE,
    /** {@code fractional}: 1 to 2 CPUs with a fraction; cri-resmgr's {@code true}. */
    FRACTIONAL,
    /**
     * {@code true}: all, whole CPUs included (as nri-plugins documents it), except containers
     * annotated {@code prefer-} or {@code require-isolated-cpus: true}.
     */
    ALL
  }

  /**
   * {@code UnlimitedBurstable}: a level of the pool tree, top down (the order of {@link PoolKind}).
   * A level the node lacks means the nearest level above it that it has.
   */
  public enum Level {
    /** {@code system}: the root, every CPU and memory node. */
    SYSTEM,
    /** {@code package}: a socket. */
    PACKAGE,
    /** {@code die}: a die of a socket. */
    DIE,
    /** {@code numa}: a NUMA node. */
    NUMA;

    /** The lower-case name used in configurations. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * The CPU classes the policy gives CPUs; {@code ""} is no class (the cpu controller leaves such
   * CPUs alone).
   *
   * @param reservedPool {@code ReservedPoolCPUClass}: the reserved CPUs
   * @param sharedPool {@code SharedPoolCPUClass}: every other CPU no container holds exclusively
   * @param defaultExclusive {@code DefaultExclusiveCPUClass}: the exclusive CPUs of a Guaranteed
   *     container not annotated {@code cpu-class}
   */
  public record CpuClassNames(String reservedPool, String sharedPool, String defaultExclusive) {
    /** No classes: the policy reports none, as cri-resmgr's did. */
    public static final CpuClassNames NONE = new CpuClassNames("", "", "");

    /** Checks for nulls. */
    public CpuClassNames {
      Objects.requireNonNull(reservedPool, "reservedPool");
      Objects.requireNonNull(sharedPool, "sharedPool");
      Objects.requireNonNull(defaultExclusive, "defaultExclusive");
    }
  }

  /**
   * Checks for nulls and copies the list.
   *
   * @throws IllegalArgumentException if a namespace pattern is malformed
   */
  public TopologyAwareOptions {
    Objects.requireNonNull(preferSharedCpus, "preferSharedCpus");
    reservedPoolNamespaces = List.copyOf(reservedPoolNamespaces);
    reservedPoolNamespaces.forEach(Glob::check);
    Objects.requireNonNull(defaultCpuPriority, "defaultCpuPriority");
    Objects.requireNonNull(unlimitedBurstable, "unlimitedBurstable");
    Objects.requireNonNull(cpuClasses, "cpuClasses");
  }

  /** A builder starting from {@link #DEFAULTS}. */
  public static Builder builder() {
    return DEFAULTS.toBuilder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /**
   * Parses section {@code policy.topology-aware}.
   *
   * @throws io.criresmgr.policy.PolicyException naming the key, the value and what is allowed
   */
  public static TopologyAwareOptions parse(JsonNode section) {
    rejectRemoved(section);
    OptionsReader r = OptionsReader.of(POLICY, section, KEYS);
    TopologyAwareOptions d = DEFAULTS;
    return builder()
        .pinCpu(r.bool("PinCPU", d.pinCpu()))
        .pinMemory(r.bool("PinMemory", d.pinMemory()))
        .preferIsolatedCpus(r.bool("PreferIsolatedCPUs", d.preferIsolatedCpus()))
        .preferSharedCpus(sharedCpus(r))
        .reservedPoolNamespaces(namespaces(r))
        .colocatePods(r.bool("ColocatePods", d.colocatePods()))
        .colocateNamespaces(r.bool("ColocateNamespaces", d.colocateNamespaces()))
        .defaultCpuPriority(priority(r))
        .unlimitedBurstable(level(r))
        .cpuClasses(
            new CpuClassNames(
                r.string("ReservedPoolCPUClass", ""),
                r.string("SharedPoolCPUClass", ""),
                r.string("DefaultExclusiveCPUClass", "")))
        .build();
  }

  // Page migration moved to a controller in cri-resmgr; say where instead of "unknown key".
  private static void rejectRemoved(JsonNode section) {
    if (!section.isObject()) {
      return;
    }
    for (Map.Entry<String, JsonNode> e : section.properties()) {
      for (String removed : REMOVED) {
        if (removed.equalsIgnoreCase(e.getKey())) {
          throw new PolicyException(
              "policy."
                  + POLICY
                  + "."
                  + e.getKey()
                  + ": no longer an option of this policy; page migration is configured in"
                  + " resource-manager.control.page-migration (PageScanInterval,"
                  + " PageMoveInterval, MaxPageMoveCount)");
        }
      }
    }
  }

  private static List<String> namespaces(OptionsReader r) {
    String key = "ReservedPoolNamespaces";
    JsonNode node = r.field(key).orElse(null);
    if (node == null) {
      return DEFAULTS.reservedPoolNamespaces();
    }
    String expected = "expected a list of namespace patterns such as [kube-system, \"infra-*\"]";
    if (!node.isArray()) {
      throw r.invalid(key, node, expected);
    }
    List<String> out = new ArrayList<>();
    for (JsonNode item : node) {
      if (!item.isTextual()) {
        throw r.invalid(key, item, expected);
      }
      try {
        Glob.check(item.textValue());
      } catch (IllegalArgumentException e) {
        throw new PolicyException(r.path(key) + ": " + e.getMessage());
      }
      out.add(item.textValue());
    }
    return out;
  }

  private static SharedCpus sharedCpus(OptionsReader r) {
    String key = "PreferSharedCPUs";
    JsonNode node = r.field(key).orElse(null);
    if (node == null) {
      return DEFAULTS.preferSharedCpus();
    }
    String value =
        node.isBoolean()
            ? String.valueOf(node.booleanValue())
            : node.isTextual() ? node.textValue().toLowerCase(Locale.ROOT) : "";
    return switch (value) {
      case "true", "yes", "on" -> SharedCpus.ALL;
      case "false", "no", "off" -> SharedCpus.NONE;
      case "fractional" -> SharedCpus.FRACTIONAL;
      default -> throw r.invalid(key, node, "expected true, false or fractional");
    };
  }

  private static CpuPriority priority(OptionsReader r) {
    String key = "DefaultCPUPriority";
    JsonNode node = r.field(key).orElse(null);
    if (node == null) {
      return DEFAULTS.defaultCpuPriority();
    }
    CpuPriority p =
        node.isTextual() ? PRIORITIES.get(node.textValue().toLowerCase(Locale.ROOT)) : null;
    if (p == null) {
      throw r.invalid(key, node, "expected high, normal, low or none");
    }
    return p;
  }

  private static Level level(OptionsReader r) {
    String key = "UnlimitedBurstable";
    JsonNode node = r.field(key).orElse(null);
    if (node == null) {
      return DEFAULTS.unlimitedBurstable();
    }
    if (node.isTextual()) {
      for (Level l : Level.values()) {
        if (l.label().equals(node.textValue().toLowerCase(Locale.ROOT))) {
          return l;
        }
      }
    }
    throw r.invalid(key, node, "expected system, package, die or numa");
  }

  /** Builds {@link TopologyAwareOptions}; {@link #build} checks them as the constructor does. */
  public static final class Builder {
    private boolean pinCpu;
    private boolean pinMemory;
    private boolean preferIsolatedCpus;
    private SharedCpus preferSharedCpus;
    private List<String> reservedPoolNamespaces;
    private boolean colocatePods;
    private boolean colocateNamespaces;
    private CpuPriority defaultCpuPriority;
    private Level unlimitedBurstable;
    private CpuClassNames cpuClasses;

    private Builder(TopologyAwareOptions o) {
      pinCpu = o.pinCpu;
      pinMemory = o.pinMemory;
      preferIsolatedCpus = o.preferIsolatedCpus;
      preferSharedCpus = o.preferSharedCpus;
      reservedPoolNamespaces = o.reservedPoolNamespaces;
      colocatePods = o.colocatePods;
      colocateNamespaces = o.colocateNamespaces;
      defaultCpuPriority = o.defaultCpuPriority;
      unlimitedBurstable = o.unlimitedBurstable;
      cpuClasses = o.cpuClasses;
    }

    /** Sets {@link TopologyAwareOptions#pinCpu}. */
    public Builder pinCpu(boolean value) {
      pinCpu = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#pinMemory}. */
    public Builder pinMemory(boolean value) {
      pinMemory = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#preferIsolatedCpus}. */
    public Builder preferIsolatedCpus(boolean value) {
      preferIsolatedCpus = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#preferSharedCpus}. */
    public Builder preferSharedCpus(SharedCpus value) {
      preferSharedCpus = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#reservedPoolNamespaces}. */
    public Builder reservedPoolNamespaces(List<String> value) {
      reservedPoolNamespaces = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#colocatePods}. */
    public Builder colocatePods(boolean value) {
      colocatePods = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#colocateNamespaces}. */
    public Builder colocateNamespaces(boolean value) {
      colocateNamespaces = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#defaultCpuPriority}. */
    public Builder defaultCpuPriority(CpuPriority value) {
      defaultCpuPriority = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#unlimitedBurstable}. */
    public Builder unlimitedBurstable(Level value) {
      unlimitedBurstable = value;
      return this;
    }

    /** Sets {@link TopologyAwareOptions#cpuClasses}. */
    public Builder cpuClasses(CpuClassNames value) {
      cpuClasses = value;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException if a namespace pattern is malformed
     */
    public TopologyAwareOptions build() {
      return new TopologyAwareOptions(
          pinCpu,
          pinMemory,
          preferIsolatedCpus,
          preferSharedCpus,
          reservedPoolNamespaces,
          colocatePods,
          colocateNamespaces,
          defaultCpuPriority,
          unlimitedBurstable,
          cpuClasses);
    }
  }
}
