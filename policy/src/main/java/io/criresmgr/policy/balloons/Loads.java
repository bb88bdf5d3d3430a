package io.criresmgr.policy.balloons;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.Objects;

/**
 * The CPUs a growing balloon avoids for its type's {@code Loads} ({@link LoadClass}): for each
 * level it loads, the cores or L2 caches holding CPUs of other balloons whose types load the same
 * level, and, with {@code OverloadsLevelInBalloon}, of its own CPUs. Computed from the balloons as
 * they are at each decision. Immutable.
 */
final class Loads {
  private final IdleCpuSharing elements;
  private final BalloonsOptions options;

  Loads(SystemTopology topology, BalloonsOptions options) {
    this.elements = new IdleCpuSharing(topology);
    this.options = Objects.requireNonNull(options, "options");
  }

  /** Whether {@code type} loads a level with {@code OverloadsLevelInBalloon}. */
  boolean overloads(BalloonType type) {
    return options.loadsOf(type).stream().anyMatch(LoadClass::overloadsLevelInBalloon);
  }

  /**
   * The CPUs balloon {@code b} of {@code set}, now holding {@code own}, should not grow onto while
   * others are free.
   */
  CpuSet avoided(Balloon b, CpuSet own, BalloonSet set) {
    CpuSet out = CpuSet.EMPTY;
    for (LoadClass c : options.loadsOf(set.type(b))) {
      if (c.overloadsLevelInBalloon()) {
        out = out.union(expand(c.level(), own));
      }
      for (Balloon o : set.balloons()) {
        if (!o.name().equals(b.name()) && loadsLevel(set.type(o), c.level())) {
          out = out.union(expand(c.level(), o.cpus()));
        }
      }
    }
    return out;
  }

  private boolean loadsLevel(BalloonType type, ShareLevel level) {
    return options.loadsOf(type).stream().anyMatch(c -> c.level() == level);
  }

  private CpuSet expand(ShareLevel level, CpuSet cpus) {
    CpuSet out = CpuSet.EMPTY;
    for (int id : cpus.stream().toArray()) {
      if (!out.contains(id)) {
        out = out.union(elements.element(level, elements.cpu(id)));
      }
    }
    return out;
  }
}
