package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.Cpu;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The CPU sets a balloon type prefers or avoids, most important first: the devices of {@code
 * PreferCloseToDevices} and nri-plugins' implicit "virtual devices" {@code isolated CPUs}, {@code
 * performance cores} and {@code efficient cores} ({@code fillCloseToDevices}, {@code
 * fillFarFromDevices}). A type prefers the sets it asks for (its devices in order, then {@code
 * PreferIsolCpus}, then {@code PreferCoreType}), then avoids, in this order, the kernel-isolated
 * CPUs and every set another type prefers, unless it prefers them itself.
 *
 * <p>Inflating keeps a hint only while the free CPUs it leaves still number the wanted count
 * ({@link #narrow}); deflating releases the CPUs with the least {@link #weight} first.
 *
 * @param hints the hints, most important first; each with a non-empty CPU set
 */
public record CpuPreferences(List<Hint> hints) {
  /** No preferences: inflating and deflating follow the CPU tree alone. */
  public static final CpuPreferences NONE = new CpuPreferences(List.of());

  /** nri-plugins' name of the isolated CPUs' virtual device. */
  static final String ISOLATED = "isolated CPUs";

  /** nri-plugins' name of the P-cores' virtual device. */
  static final String PERFORMANCE = "performance cores";

  /** nri-plugins' name of the E-cores' virtual device. */
  static final String EFFICIENT = "efficient cores";

  /** Copies the list. */
  public CpuPreferences {
    hints = List.copyOf(hints);
  }

  /**
   * One preference: CPUs to take first ({@code prefer}) or last.
   *
   * @param name the device path, or the nri-plugins virtual device name, e.g. {@code isolated CPUs}
   * @param cpus the CPUs of the device
   * @param prefer true to prefer {@code cpus}, false to avoid them
   */
  public record Hint(String name, CpuSet cpus, boolean prefer) {
    /** Checks for nulls. */
    public Hint {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(cpus, "cpus");
    }

    /** Whether {@code cpu} is on the good side of this hint. */
    boolean good(int cpu) {
      return cpus.contains(cpu) == prefer;
    }

    @Override
    public String toString() {
      return (prefer ? "prefer " : "avoid ") + name + " " + cpus;
    }
  }

  /**
   * The preferences of {@code type} among all the policy's {@code types} on {@code topology}. Hints
   * whose CPU set is empty (no isolated CPUs, no hybrid cores) are left out, as they change no
   * choice.
   */
  public static CpuPreferences of(
      BalloonType type, List<BalloonType> types, SystemTopology topology) {
    return of(type, types, topology, DeviceCpus.NONE);
  }

  /**
   * The preferences of {@code type} among {@code types} on {@code topology}, with the CPUs of the
   * {@code PreferCloseToDevices} devices from {@code deviceCpus}. A type prefers its own devices
   * first, in its order, then the virtual devices; it avoids the devices other types prefer after
   * the isolated CPUs, in the order the types list them (nri-plugins' {@code fillFarFromDevices}).
   */
  public static CpuPreferences of(
      BalloonType type, List<BalloonType> types, SystemTopology topology, DeviceCpus deviceCpus) {
    Map<String, CpuSet> virtual =
        Map.of(
            ISOLATED, topology.isolatedCpus(),
            PERFORMANCE, coreType(topology, CoreType.PERFORMANCE),
            EFFICIENT, coreType(topology, CoreType.EFFICIENT));
    Set<String> own = devices(type);
    Set<String> avoid = new LinkedHashSet<>();
    avoid.add(ISOLATED);
    types.forEach(t -> avoid.addAll(devices(t)));
    avoid.removeAll(own);
    List<Hint> hints = new ArrayList<>();
    for (String d : own) {
      hints.add(new Hint(d, cpus(d, virtual, deviceCpus), true));
    }
    for (String d : avoid) {
      hints.add(new Hint(d, cpus(d, virtual, deviceCpus), false));
    }
    hints.removeIf(h -> h.cpus().isEmpty());
    return new CpuPreferences(hints);
  }

  private static CpuSet cpus(String device, Map<String, CpuSet> virtual, DeviceCpus deviceCpus) {
    CpuSet v = virtual.get(device);
    return v != null ? v : deviceCpus.cpus(device);
  }

  /**
   * The devices {@code type} prefers, most important first (nri-plugins' order): its {@code
   * PreferCloseToDevices} paths, then the virtual devices. Paths start with "/", so they never
   * collide with a virtual device's name.
   */
  private static Set<String> devices(BalloonType type) {
    Set<String> out = new LinkedHashSet<>(type.preferCloseToDevices());
    if (type.preferIsolCpus()) {
      out.add(ISOLATED);
    }
    if (type.preferCoreType() == CoreType.PERFORMANCE) {
      out.add(PERFORMANCE);
    } else if (type.preferCoreType() == CoreType.EFFICIENT) {
      out.add(EFFICIENT);
    }
    return out;
  }

  private static CpuSet coreType(SystemTopology topology, CoreType kind) {
    return CpuSet.of(
        topology.cpus().values().stream()
            .filter(c -> c.coreType() == kind)
            .mapToInt(Cpu::id)
            .toArray());
  }

  /** Whether there are no hints. */
  public boolean isEmpty() {
    return hints.isEmpty();
  }

  /**
   * The free CPUs to inflate from: {@code free} narrowed by each hint in turn (to its CPUs if
   * preferred, to the others if avoided), each kept only if at least {@code count} CPUs remain.
   */
  public CpuSet narrow(CpuSet free, int count) {
    CpuSet remaining = free;
    for (Hint h : hints) {
      CpuSet next = h.prefer() ? remaining.intersection(h.cpus()) : remaining.difference(h.cpus());
      if (next.size() >= count) {
        remaining = next;
      }
    }
    return remaining;
  }

  /**
   * How much this type wants to keep {@code cpu}: bit {@code n-1-i} is set if it is on the good
   * side of hint {@code i} of {@code n}, so an earlier hint outweighs all later ones together.
   * Avoided sets count too: nri-plugins takes their complement within the free CPUs, which misses
   * every current CPU, so there a type never releases the CPUs it avoids first.
   */
  public int weight(int cpu) {
    int w = 0;
    for (Hint h : hints) {
      w = (w << 1) | (h.good(cpu) ? 1 : 0);
    }
    return w;
  }
}
