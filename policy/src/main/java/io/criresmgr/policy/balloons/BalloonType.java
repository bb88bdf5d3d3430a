package io.criresmgr.policy.balloons;

import io.criresmgr.cache.affinity.Expression;
import io.criresmgr.cache.affinity.Glob;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.MemoryType;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One balloon type of {@code policy.balloons.BalloonTypes} (cri-resmgr spellings; nri-plugins'
 * camelCase spellings match too). See {@code docs/policy/balloons.md} for the meaning of each.
 *
 * @param name {@code Name}; {@code reserved} and {@code default} customize the built-in types
 * @param namespaces {@code Namespaces}: globs of namespaces whose containers get this type
 * @param matchExpressions {@code MatchExpressions}: any match selects this type
 * @param minCpus {@code MinCPUs}: each balloon has at least this many CPUs
 * @param maxCpus {@code MaxCPUs}: each balloon has at most this many CPUs, 0 = unlimited
 * @param minBalloons {@code MinBalloons}: balloons created up front and never deleted
 * @param maxBalloons {@code MaxBalloons}: most balloons of this type at a time, 0 = unlimited
 * @param allocatorPriority {@code AllocatorPriority}: which CPUs the allocator prefers, and the
 *     order of creating {@code MinBalloons}; default {@link CpuPriority#HIGH} (cri-resmgr's 0)
 * @param cpuClass {@code CPUClass} (cri-resmgr's code spells {@code CpuClass}), {@code ""}: none
 * @param preferSpreadingPods {@code PreferSpreadingPods}: do not keep a pod's containers together
 * @param preferPerNamespaceBalloon {@code PreferPerNamespaceBalloon}
 * @param preferNewBalloons {@code PreferNewBalloons}
 * @param shareIdleCpusInSame {@code ShareIdleCPUsInSame}, {@code null}: share no idle CPUs
 * @param preferSpreadOnPhysicalCores {@code PreferSpreadOnPhysicalCores}, {@code null}: inherit
 * @param allocatorTopologyBalancing {@code AllocatorTopologyBalancing}, {@code null}: inherit
 * @param pinMemory {@code PinMemory}, {@code null}: inherit
 * @param memoryTypes {@code MemoryTypes}, empty: DRAM
 * @param hideHyperthreads {@code HideHyperthreads}: one thread per physical core is visible
 * @param preferIsolCpus {@code PreferIsolCpus}: prefer kernel-isolated CPUs
 * @param preferCoreType {@code PreferCoreType}, {@code null}: no preference
 * @param groupBy {@code GroupBy} (nri-plugins): containers of one group prefer one balloon
 * @param preferCloseToDevices {@code PreferCloseToDevices} (nri-plugins): absolute host paths of
 *     devices whose CPUs this type prefers, most important first; other types avoid them
 * @param loads {@code Loads} (nri-plugins): names of {@code LoadClasses} its containers generate
 */
public record BalloonType(
    String name,
    List<String> namespaces,
    List<Expression> matchExpressions,
    int minCpus,
    int maxCpus,
    int minBalloons,
    int maxBalloons,
    CpuPriority allocatorPriority,
    String cpuClass,
    boolean preferSpreadingPods,
    boolean preferPerNamespaceBalloon,
    boolean preferNewBalloons,
    @Nullable ShareLevel shareIdleCpusInSame,
    @Nullable Boolean preferSpreadOnPhysicalCores,
    @Nullable Boolean allocatorTopologyBalancing,
    @Nullable Boolean pinMemory,
    Set<MemoryType> memoryTypes,
    boolean hideHyperthreads,
    boolean preferIsolCpus,
    @Nullable CoreType preferCoreType,
    GroupBy groupBy,
    List<String> preferCloseToDevices,
    List<String> loads) {
  /** Name of the built-in type of the reserved CPUs. */
  public static final String RESERVED = "reserved";

  /** Name of the built-in type of containers no other type takes. */
  public static final String DEFAULT = "default";

  /**
   * Checks nulls and the rules that concern this type alone, and copies the collections.
   *
   * @throws IllegalArgumentException with a message {@code balloon type "<name>": <Field> ...}
   */
  public BalloonType {
    Objects.requireNonNull(name, "name");
    namespaces = List.copyOf(namespaces);
    matchExpressions = List.copyOf(matchExpressions);
    Objects.requireNonNull(allocatorPriority, "allocatorPriority");
    Objects.requireNonNull(cpuClass, "cpuClass");
    Objects.requireNonNull(groupBy, "groupBy");
    memoryTypes = Set.copyOf(memoryTypes);
    preferCloseToDevices = List.copyOf(preferCloseToDevices);
    loads = List.copyOf(loads);
    if (name.isEmpty()) {
      throw new IllegalArgumentException("balloon type \"\": Name must not be empty");
    }
    namespaces.forEach(ns -> checkGlob(name, ns));
    nonNegative(name, "MinCPUs", minCpus);
    nonNegative(name, "MaxCPUs", maxCpus);
    nonNegative(name, "MinBalloons", minBalloons);
    nonNegative(name, "MaxBalloons", maxBalloons);
    atMost(name, "MinCPUs", minCpus, "MaxCPUs", maxCpus);
    atMost(name, "MinBalloons", minBalloons, "MaxBalloons", maxBalloons);
    checkBuiltIn(name, minBalloons, maxBalloons);
    if (preferCoreType == CoreType.UNKNOWN) {
      throw new IllegalArgumentException(
          "balloon type \"" + name + "\": PreferCoreType must be performance or efficient");
    }
    preferCloseToDevices.forEach(d -> checkDevice(name, d));
  }

  /**
   * A type with every option at its default: no namespaces or expressions, no CPU or balloon
   * limits, priority {@link CpuPriority#HIGH}, nothing shared, nothing overridden.
   */
  public static BalloonType named(String name) {
    return builder(name).build();
  }

  /** A builder of type {@code name}, every other option at its default (see {@link #named}). */
  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** A builder holding every option of this type. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  /** Whether this is the built-in {@code reserved} type. */
  public boolean isReserved() {
    return name.equals(RESERVED);
  }

  /**
   * Whether this is the {@code reserved} type configured with {@code MinCPUs} or {@code MaxCPUs}:
   * its balloon grows beyond the reserved CPUs onto free ones (nri-plugins). Without either it
   * keeps exactly the reserved CPUs (cri-resmgr).
   */
  public boolean growsBeyondReserved() {
    return isReserved() && (minCpus > 0 || maxCpus > 0);
  }

  /** Whether this is the built-in {@code default} type. */
  public boolean isDefault() {
    return name.equals(DEFAULT);
  }

  /** This type with other namespaces and balloon limits (for the built-in types). */
  BalloonType withBuiltIn(List<String> newNamespaces, int newMin, int newMax, CpuPriority p) {
    return toBuilder()
        .namespaces(newNamespaces)
        .minBalloons(newMin)
        .maxBalloons(newMax)
        .allocatorPriority(p)
        .build();
  }

  private static void checkDevice(String type, String path) {
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException(
          "balloon type \""
              + type
              + "\": PreferCloseToDevices: \""
              + path
              + "\" is not an absolute path; expected device paths such as /sys/class/net/eth0,"
              + " /sys/bus/pci/devices/0000:3b:00.0 or /dev/vfio/7");
    }
  }

  private static void checkGlob(String type, String pattern) {
    try {
      Glob.check(pattern);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "balloon type \"" + type + "\": Namespaces: " + e.getMessage(), e);
    }
  }

  // Reserved and default are single balloons (cri-resmgr; nri-plugins allows several default
  // balloons). The reserved type's MinCPUs/MaxCPUs are checked against the reserved CPUs by
  // BalloonsPolicy.
  private static void checkBuiltIn(String type, int minB, int maxB) {
    if ((type.equals(RESERVED) || type.equals(DEFAULT)) && (minB > 1 || maxB > 1)) {
      throw new IllegalArgumentException(
          String.format(
              "balloon type \"%s\": MinBalloons and MaxBalloons can only be 0 or 1, there is"
                  + " exactly one %s balloon (got MinBalloons %d, MaxBalloons %d)",
              type, type, minB, maxB));
    }
  }

  private static void nonNegative(String type, String field, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          "balloon type \"" + type + "\": " + field + " must not be negative, got " + value);
    }
  }

  private static void atMost(String type, String minField, int min, String maxField, int max) {
    if (max != 0 && min > max) {
      throw new IllegalArgumentException(
          String.format(
              "balloon type \"%s\": %s (%d) is greater than %s (%d)",
              type, minField, min, maxField, max));
    }
  }

  /** Builds a {@link BalloonType}; {@link #build} checks it as the constructor does. */
  public static final class Builder {
    private String name;
    private List<String> namespaces = List.of();
    private List<Expression> matchExpressions = List.of();
    private int minCpus = 0;
    private int maxCpus = 0;
    private int minBalloons = 0;
    private int maxBalloons = 0;
    private CpuPriority allocatorPriority = CpuPriority.HIGH;
    private String cpuClass = "";
    private boolean preferSpreadingPods = false;
    private boolean preferPerNamespaceBalloon = false;
    private boolean preferNewBalloons = false;
    private @Nullable ShareLevel shareIdleCpusInSame;
    private @Nullable Boolean preferSpreadOnPhysicalCores;
    private @Nullable Boolean allocatorTopologyBalancing;
    private @Nullable Boolean pinMemory;
    private Set<MemoryType> memoryTypes = Set.of();
    private boolean hideHyperthreads = false;
    private boolean preferIsolCpus = false;
    private @Nullable CoreType preferCoreType;
    private GroupBy groupBy = GroupBy.NONE;
    private List<String> preferCloseToDevices = List.of();
    private List<String> loads = List.of();

    private Builder(String name) {
      this.name = name;
    }

    private Builder(BalloonType o) {
      name = o.name;
      namespaces = o.namespaces;
      matchExpressions = o.matchExpressions;
      minCpus = o.minCpus;
      maxCpus = o.maxCpus;
      minBalloons = o.minBalloons;
      maxBalloons = o.maxBalloons;
      allocatorPriority = o.allocatorPriority;
      cpuClass = o.cpuClass;
      preferSpreadingPods = o.preferSpreadingPods;
      preferPerNamespaceBalloon = o.preferPerNamespaceBalloon;
      preferNewBalloons = o.preferNewBalloons;
      shareIdleCpusInSame = o.shareIdleCpusInSame;
      preferSpreadOnPhysicalCores = o.preferSpreadOnPhysicalCores;
      allocatorTopologyBalancing = o.allocatorTopologyBalancing;
      pinMemory = o.pinMemory;
      memoryTypes = o.memoryTypes;
      hideHyperthreads = o.hideHyperthreads;
      preferIsolCpus = o.preferIsolCpus;
      preferCoreType = o.preferCoreType;
      groupBy = o.groupBy;
      preferCloseToDevices = o.preferCloseToDevices;
      loads = o.loads;
    }

    /** Sets {@link BalloonType#name}. */
    public Builder name(String value) {
      name = value;
      return this;
    }

    /** Sets {@link BalloonType#namespaces}. */
    public Builder namespaces(List<String> value) {
      namespaces = value;
      return this;
    }

    /** Sets {@link BalloonType#matchExpressions}. */
    public Builder matchExpressions(List<Expression> value) {
      matchExpressions = value;
      return this;
    }

    /** Sets {@link BalloonType#minCpus}. */
    public Builder minCpus(int value) {
      minCpus = value;
      return this;
    }

    /** Sets {@link BalloonType#maxCpus}. */
    public Builder maxCpus(int value) {
      maxCpus = value;
      return this;
    }

    /** Sets {@link BalloonType#minBalloons}. */
    public Builder minBalloons(int value) {
      minBalloons = value;
      return this;
    }

    /** Sets {@link BalloonType#maxBalloons}. */
    public Builder maxBalloons(int value) {
      maxBalloons = value;
      return this;
    }

    /** Sets {@link BalloonType#allocatorPriority}. */
    public Builder allocatorPriority(CpuPriority value) {
      allocatorPriority = value;
      return this;
    }

    /** Sets {@link BalloonType#cpuClass}. */
    public Builder cpuClass(String value) {
      cpuClass = value;
      return this;
    }

    /** Sets {@link BalloonType#preferSpreadingPods}. */
    public Builder preferSpreadingPods(boolean value) {
      preferSpreadingPods = value;
      return this;
    }

    /** Sets {@link BalloonType#preferPerNamespaceBalloon}. */
    public Builder preferPerNamespaceBalloon(boolean value) {
      preferPerNamespaceBalloon = value;
      return this;
    }

    /** Sets {@link BalloonType#preferNewBalloons}. */
    public Builder preferNewBalloons(boolean value) {
      preferNewBalloons = value;
      return this;
    }

    /** Sets {@link BalloonType#shareIdleCpusInSame}. */
    public Builder shareIdleCpusInSame(@Nullable ShareLevel value) {
      shareIdleCpusInSame = value;
      return this;
    }

    /** Sets {@link BalloonType#preferSpreadOnPhysicalCores}. */
    public Builder preferSpreadOnPhysicalCores(@Nullable Boolean value) {
      preferSpreadOnPhysicalCores = value;
      return this;
    }

    /** Sets {@link BalloonType#allocatorTopologyBalancing}. */
    public Builder allocatorTopologyBalancing(@Nullable Boolean value) {
      allocatorTopologyBalancing = value;
      return this;
    }

    /** Sets {@link BalloonType#pinMemory}. */
    public Builder pinMemory(@Nullable Boolean value) {
      pinMemory = value;
      return this;
    }

    /** Sets {@link BalloonType#memoryTypes}. */
    public Builder memoryTypes(Set<MemoryType> value) {
      memoryTypes = value;
      return this;
    }

    /** Sets {@link BalloonType#hideHyperthreads}. */
    public Builder hideHyperthreads(boolean value) {
      hideHyperthreads = value;
      return this;
    }

    /** Sets {@link BalloonType#preferIsolCpus}. */
    public Builder preferIsolCpus(boolean value) {
      preferIsolCpus = value;
      return this;
    }

    /** Sets {@link BalloonType#preferCoreType}. */
    public Builder preferCoreType(@Nullable CoreType value) {
      preferCoreType = value;
      return this;
    }

    /** Sets {@link BalloonType#groupBy}. */
    public Builder groupBy(GroupBy value) {
      groupBy = value;
      return this;
    }

    /** Sets {@link BalloonType#preferCloseToDevices}. */
    public Builder preferCloseToDevices(List<String> value) {
      preferCloseToDevices = value;
      return this;
    }

    /** Sets {@link BalloonType#loads}. */
    public Builder loads(List<String> value) {
      loads = value;
      return this;
    }

    /**
     * The type.
     *
     * @throws IllegalArgumentException with a message {@code balloon type "<name>": <Field> ...}
     */
    public BalloonType build() {
      return new BalloonType(
          name,
          namespaces,
          matchExpressions,
          minCpus,
          maxCpus,
          minBalloons,
          maxBalloons,
          allocatorPriority,
          cpuClass,
          preferSpreadingPods,
          preferPerNamespaceBalloon,
          preferNewBalloons,
          shareIdleCpusInSame,
          preferSpreadOnPhysicalCores,
          allocatorTopologyBalancing,
          pinMemory,
          memoryTypes,
          hideHyperthreads,
          preferIsolCpus,
          preferCoreType,
          groupBy,
          preferCloseToDevices,
          loads);
    }
  }
}
