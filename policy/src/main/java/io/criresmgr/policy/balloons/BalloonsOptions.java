package io.criresmgr.policy.balloons;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.affinity.Glob;
import io.criresmgr.policy.OptionsReader;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.cpuallocator.CpuPriority;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The options of section {@code policy.balloons} (cri-resmgr spellings; nri-plugins' camelCase
 * spellings match too, as keys match case-insensitively; unknown keys are errors).
 *
 * @param pinCpu {@code PinCPU}: set cpusets and CPU shares (default true)
 * @param pinMemory {@code PinMemory}: set {@code cpuset.mems}; a type may override (default true)
 * @param idleCpuClass {@code IdleCPUClass}: CPU class of CPUs in no balloon ({@code ""}: none)
 * @param reservedPoolNamespaces {@code ReservedPoolNamespaces}: namespace globs of the reserved
 *     type ({@code kube-system} always is one)
 * @param allocatorTopologyBalancing {@code AllocatorTopologyBalancing}: spread balloons over the
 *     emptiest packages, dies and NUMA nodes instead of packing them (default false)
 * @param preferSpreadOnPhysicalCores {@code PreferSpreadOnPhysicalCores}: take one thread per
 *     physical core first (default false)
 * @param balloonTypes {@code BalloonTypes} as configured; see {@link #effectiveTypes()}
 * @param loadClasses {@code LoadClasses} (nri-plugins): the loads types may list in {@code Loads}
 */
public record BalloonsOptions(
    boolean pinCpu,
    boolean pinMemory,
    String idleCpuClass,
    List<String> reservedPoolNamespaces,
    boolean allocatorTopologyBalancing,
    boolean preferSpreadOnPhysicalCores,
    List<BalloonType> balloonTypes,
    List<LoadClass> loadClasses)
    implements PolicyOptions {
  /** The options when {@code policy.balloons} is absent or empty. */
  public static final BalloonsOptions DEFAULTS =
      new BalloonsOptions(
          true, true, "", List.of("kube-system"), false, false, List.of(), List.of());

  /** Option keys, in the order error messages list them. */
  public static final List<String> KEYS =
      List.of(
          "PinCPU",
          "PinMemory",
          "IdleCPUClass",
          "ReservedPoolNamespaces",
          "AllocatorTopologyBalancing",
          "PreferSpreadOnPhysicalCores",
          "BalloonTypes",
          "LoadClasses");

  /** Priority of the built-in types when not configured (nri-plugins' choice). */
  public static final CpuPriority BUILT_IN_PRIORITY = CpuPriority.LOW;

  private static final String KUBE_SYSTEM = "kube-system";

  /**
   * Checks nulls, namespace globs and that type names are unique; copies the lists.
   *
   * @throws IllegalArgumentException naming the duplicate type or the malformed pattern
   */
  public BalloonsOptions {
    Objects.requireNonNull(idleCpuClass, "idleCpuClass");
    reservedPoolNamespaces = List.copyOf(reservedPoolNamespaces);
    reservedPoolNamespaces.forEach(Glob::check);
    balloonTypes = List.copyOf(balloonTypes);
    loadClasses = List.copyOf(loadClasses);
    Set<String> names = new HashSet<>();
    for (BalloonType t : balloonTypes) {
      if (!names.add(t.name())) {
        throw new IllegalArgumentException(
            "balloon type \"" + t.name() + "\": Name is used by more than one balloon type");
      }
    }
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
   * Parses section {@code policy.balloons}.
   *
   * @throws PolicyException naming the key's path (e.g. {@code
   *     policy.balloons.BalloonTypes[2].MinCPUs}), the type, the value and what is allowed
   */
  public static BalloonsOptions parse(JsonNode section) {
    NriOnlyKeys.reject("policy.balloons", section, NriOnlyKeys.POLICY, KEYS);
    OptionsReader r = OptionsReader.of("balloons", section, KEYS);
    BalloonsOptions d = DEFAULTS;
    List<String> namespaces = namespaces(r);
    List<LoadClass> loadClasses = LoadClass.parseAll(r);
    List<BalloonType> types = types(r);
    checkLoads(r, types, loadClasses);
    try {
      return builder()
          .pinCpu(r.bool("PinCPU", d.pinCpu()))
          .pinMemory(r.bool("PinMemory", d.pinMemory()))
          .idleCpuClass(r.string("IdleCPUClass", d.idleCpuClass()))
          .reservedPoolNamespaces(namespaces)
          .allocatorTopologyBalancing(
              r.bool("AllocatorTopologyBalancing", d.allocatorTopologyBalancing()))
          .preferSpreadOnPhysicalCores(
              r.bool("PreferSpreadOnPhysicalCores", d.preferSpreadOnPhysicalCores()))
          .balloonTypes(types)
          .loadClasses(loadClasses)
          .build();
    } catch (IllegalArgumentException e) { // not reached: parsing checks first, with paths
      throw new PolicyException("policy.balloons: " + e.getMessage(), e);
    }
  }

  /** Every load a type lists must be a load class. */
  private static void checkLoads(
      OptionsReader r, List<BalloonType> types, List<LoadClass> classes) {
    List<String> known = classes.stream().map(LoadClass::name).toList();
    for (int i = 0; i < types.size(); i++) {
      for (String load : types.get(i).loads()) {
        if (!known.contains(load)) {
          throw new PolicyException(
              String.format(
                  "%s[%d].Loads: \"%s\": unknown load class, expected %s (balloon type \"%s\")",
                  r.path("BalloonTypes"),
                  i,
                  load,
                  known.isEmpty()
                      ? "a class defined in LoadClasses (none is)"
                      : "one of LoadClasses: " + String.join(", ", known),
                  types.get(i).name()));
        }
      }
    }
  }

  /** The load classes {@code type} lists in {@code Loads}. */
  public List<LoadClass> loadsOf(BalloonType type) {
    return loadClasses.stream().filter(c -> type.loads().contains(c.name())).toList();
  }

  private static List<String> namespaces(OptionsReader r) {
    String key = "ReservedPoolNamespaces";
    if (r.field(key).isEmpty()) {
      return DEFAULTS.reservedPoolNamespaces();
    }
    List<String> out = Values.strings(r, key, "expected a list of namespace patterns");
    try {
      out.forEach(Glob::check);
    } catch (IllegalArgumentException e) {
      throw new PolicyException(r.path(key) + ": " + e.getMessage(), e);
    }
    return out;
  }

  private static List<BalloonType> types(OptionsReader r) {
    JsonNode v = r.field("BalloonTypes").orElse(null);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw r.invalid("BalloonTypes", v, "expected a list of balloon types");
    }
    List<BalloonType> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      BalloonType t = BalloonTypeParser.parse(i, v.get(i));
      for (int j = 0; j < out.size(); j++) {
        if (out.get(j).name().equals(t.name())) {
          throw new PolicyException(
              String.format(
                  "%s[%d]: balloon type \"%s\": Name is already used by BalloonTypes[%d]",
                  r.path("BalloonTypes"), i, t.name(), j));
        }
      }
      out.add(t);
    }
    return out;
  }

  /**
   * The types the policy uses: {@code reserved} first, the other configured types in their order,
   * {@code default} last. Absent built-in types are added with priority {@link #BUILT_IN_PRIORITY}
   * and no other option. Both built-in types get {@code MinBalloons = MaxBalloons = 1}; the
   * reserved type's namespaces are its own plus {@code kube-system} plus {@link
   * #reservedPoolNamespaces}, without repeats.
   */
  public List<BalloonType> effectiveTypes() {
    BalloonType reserved = find(BalloonType.RESERVED);
    BalloonType dflt = find(BalloonType.DEFAULT);
    Set<String> ns = new LinkedHashSet<>(reserved.namespaces());
    ns.add(KUBE_SYSTEM);
    ns.addAll(reservedPoolNamespaces);
    List<BalloonType> out = new ArrayList<>();
    out.add(reserved.withBuiltIn(List.copyOf(ns), 1, 1, reserved.allocatorPriority()));
    balloonTypes.stream().filter(t -> !t.isReserved() && !t.isDefault()).forEach(out::add);
    out.add(dflt.withBuiltIn(dflt.namespaces(), 1, 1, dflt.allocatorPriority()));
    return List.copyOf(out);
  }

  private BalloonType find(String name) {
    return balloonTypes.stream()
        .filter(t -> t.name().equals(name))
        .findFirst()
        .orElseGet(() -> BalloonType.named(name).withBuiltIn(List.of(), 1, 1, BUILT_IN_PRIORITY));
  }

  /**
   * Whether containers of {@code type} get {@code cpuset.mems}: its override, else the policy's.
   */
  public boolean pinMemory(BalloonType type) {
    return type.pinMemory() != null ? type.pinMemory() : pinMemory;
  }

  /** {@code PreferSpreadOnPhysicalCores} of {@code type}: its override, else the policy's. */
  public boolean preferSpreadOnPhysicalCores(BalloonType type) {
    Boolean own = type.preferSpreadOnPhysicalCores();
    return own != null ? own : preferSpreadOnPhysicalCores;
  }

  /** {@code AllocatorTopologyBalancing} of {@code type}: its override, else the policy's. */
  public boolean allocatorTopologyBalancing(BalloonType type) {
    Boolean own = type.allocatorTopologyBalancing();
    return own != null ? own : allocatorTopologyBalancing;
  }

  /** Builds {@link BalloonsOptions}; {@link #build} checks them as the constructor does. */
  public static final class Builder {
    private boolean pinCpu;
    private boolean pinMemory;
    private String idleCpuClass;
    private List<String> reservedPoolNamespaces;
    private boolean allocatorTopologyBalancing;
    private boolean preferSpreadOnPhysicalCores;
    private List<BalloonType> balloonTypes;
    private List<LoadClass> loadClasses;

    private Builder(BalloonsOptions o) {
      pinCpu = o.pinCpu;
      pinMemory = o.pinMemory;
      idleCpuClass = o.idleCpuClass;
      reservedPoolNamespaces = o.reservedPoolNamespaces;
      allocatorTopologyBalancing = o.allocatorTopologyBalancing;
      preferSpreadOnPhysicalCores = o.preferSpreadOnPhysicalCores;
      balloonTypes = o.balloonTypes;
      loadClasses = o.loadClasses;
    }

    /** Sets {@link BalloonsOptions#pinCpu}. */
    public Builder pinCpu(boolean value) {
      pinCpu = value;
      return this;
    }

    /** Sets {@link BalloonsOptions#pinMemory}. */
    public Builder pinMemory(boolean value) {
      pinMemory = value;
      return this;
    }

    /** Sets {@link BalloonsOptions#idleCpuClass}. */
    public Builder idleCpuClass(String value) {
      idleCpuClass = value;
      return this;
    }

    /** Sets {@link BalloonsOptions#reservedPoolNamespaces}. */
    public Builder reservedPoolNamespaces(List<String> value) {
      reservedPoolNamespaces = value;
      return this;
    }

    /** Sets {@link BalloonsOptions#allocatorTopologyBalancing}. */
    public Builder allocatorTopologyBalancing(boolean value) {
      allocatorTopologyBalancing = value;
      return this;
    }

    /** Sets {@link BalloonsOptions#preferSpreadOnPhysicalCores}. */
    public Builder preferSpreadOnPhysicalCores(boolean value) {
      preferSpreadOnPhysicalCores = value;
      return this;
    }

    /** Sets {@link BalloonsOptions#balloonTypes}. */
    public Builder balloonTypes(List<BalloonType> value) {
      balloonTypes = value;
      return this;
    }

    /** Sets {@link BalloonsOptions#loadClasses}. */
    public Builder loadClasses(List<LoadClass> value) {
      loadClasses = value;
      return this;
    }

    /**
     * The options.
     *
     * @throws IllegalArgumentException naming the duplicate type or the malformed pattern
     */
    public BalloonsOptions build() {
      return new BalloonsOptions(
          pinCpu,
          pinMemory,
          idleCpuClass,
          reservedPoolNamespaces,
          allocatorTopologyBalancing,
          preferSpreadOnPhysicalCores,
          balloonTypes,
          loadClasses);
    }
  }
}
