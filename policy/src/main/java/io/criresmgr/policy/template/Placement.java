package io.criresmgr.policy.template;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToIntFunction;

/**
 * Who holds which CPUs, derived from the containers' assignments in the cache; the template policy
 * keeps no other state.
 *
 * <p>A container holds CPUs exclusively when it wants {@code n > 0} exclusive CPUs and its
 * assignment has exactly {@code n} allowed CPUs that no older holder and no shared container uses.
 * The checks make the reading robust against assignments the policy did not make (another policy's,
 * or its own under other options): such a container counts as shared and is moved to the shared
 * pool by the next decision.
 *
 * @param allowed every CPU the policy may hand out
 * @param exclusive exclusively held CPUs by cache id, oldest holder first
 * @param shared the shared pool: allowed CPUs no one holds exclusively
 */
record Placement(CpuSet allowed, Map<String, CpuSet> exclusive, CpuSet shared) {
  /** Checks for nulls and copies the map, keeping its order. */
  Placement {
    Objects.requireNonNull(allowed, "allowed");
    Objects.requireNonNull(shared, "shared");
    exclusive = Collections.unmodifiableMap(new LinkedHashMap<>(exclusive));
  }

  /**
   * Reads the placement from {@code active} containers (in creation order); {@code wanted} gives
   * the number of exclusive CPUs a container wants (0: it shares).
   */
  static Placement derive(CpuSet allowed, List<Container> active, ToIntFunction<Container> wanted) {
    CpuSet sharedUse = CpuSet.EMPTY;
    for (Container c : active) {
      if (wanted.applyAsInt(c) == 0) {
        sharedUse = sharedUse.union(c.assignment().cpus());
      }
    }
    Map<String, CpuSet> held = new LinkedHashMap<>();
    CpuSet claimed = CpuSet.EMPTY;
    for (Container c : active) {
      CpuSet cpus = c.assignment().cpus();
      if (wanted.applyAsInt(c) > 0
          && cpus.size() == wanted.applyAsInt(c)
          && allowed.containsAll(cpus)
          && !cpus.intersects(claimed)
          && !cpus.intersects(sharedUse)) {
        held.put(c.cacheId(), cpus);
        claimed = claimed.union(cpus);
      }
    }
    return new Placement(allowed, held, allowed.difference(claimed));
  }

  /** Every exclusively held CPU. */
  CpuSet exclusiveCpus() {
    return allowed.difference(shared);
  }

  /** This placement with {@code cpus}, taken from the shared pool, held by {@code cacheId}. */
  Placement withExclusive(String cacheId, CpuSet cpus) {
    Map<String, CpuSet> held = new LinkedHashMap<>(exclusive);
    held.put(cacheId, cpus);
    return new Placement(allowed, held, shared.difference(cpus));
  }
}
