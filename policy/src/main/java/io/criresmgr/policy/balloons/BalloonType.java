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

  /** A type without {@code Loads}. */
  public BalloonType(
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
      List<String> preferCloseToDevices) {
    this(
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
        List.of());
  }

  /** A type without {@code PreferCloseToDevices}. */
  public BalloonType(
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
      GroupBy groupBy) {
    this(
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
        List.of());
  }

  /**
   * A type with every option at its default: no namespaces or expressions, no CPU or balloon
   * limits, priority {@link CpuPriority#HIGH}, nothing shared, nothing overridden.
   */
  public static BalloonType named(String name) {
    return new BalloonType(
        name,
        List.of(),
        List.of(),
        0,
        0,
        0,
        0,
        CpuPriority.HIGH,
        "",
        false,
        false,
        false,
        null,
        null,
        null,
        null,
        Set.of(),
        false,
        false,
        null,
        GroupBy.NONE);
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
    return new BalloonType(
        name,
        newNamespaces,
        matchExpressions,
        minCpus,
        maxCpus,
        newMin,
        newMax,
        p,
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
}
