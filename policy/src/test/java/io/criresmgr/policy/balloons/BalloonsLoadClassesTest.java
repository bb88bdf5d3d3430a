package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code LoadClasses} and {@code Loads} (nri-plugins), through the policy. */
class BalloonsLoadClassesTest {
  /** One NUMA node, 8 cores x 2 threads, 2 cores per L2 cache: 0-3, 4-7, 8-11, 12-15. */
  private static final SystemTopology ONE_NODE =
      TopologySpec.parse("[{mem: 1G, cores: 8, threads: 2, l2-cores: 2}]").topology();

  private static final Map<String, String> HOT =
      Map.of("balloon.balloons.resource-policy.nri.io", "hot");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "LoadClasses: [{Name: busy, Level: core}]\nBalloonTypes: [{Name: hot, Loads: [busy]}]",
        "loadClasses: [{name: busy, level: CORE}]\nballoonTypes: [{name: hot, loads: [busy]}]"
      })
  void bothSpellingsParse(String yaml) throws Exception {
    BalloonsOptions o = BalloonsOptionsTest.parse(yaml);
    assertEquals(List.of(new LoadClass("busy", ShareLevel.CORE, false)), o.loadClasses());
    assertEquals(List.of("busy"), o.balloonTypes().get(0).loads());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "BalloonTypes: [{Name: hot, Loads: [busy]}]"
            + "|policy.balloons.BalloonTypes[0].Loads: \"busy\": unknown load class, expected a"
            + " class defined in LoadClasses (none is) (balloon type \"hot\")",
        "{LoadClasses: [{Name: busy, Level: core}], BalloonTypes: [{Name: hot, Loads: [bussy]}]}"
            + "|policy.balloons.BalloonTypes[0].Loads: \"bussy\": unknown load class, expected one"
            + " of LoadClasses: busy (balloon type \"hot\")",
        "LoadClasses: [{Name: busy, Level: numa}]"
            + "|policy.balloons.LoadClasses[0].Level: invalid value \"numa\": expected l2cache or"
            + " core",
        "LoadClasses: [{Level: core}]"
            + "|policy.balloons.LoadClasses[0].Name: missing or empty, expected the load's name",
        "LoadClasses: [{Name: busy}]"
            + "|policy.balloons.LoadClasses[0].Level: missing, expected l2cache or core",
        "LoadClasses: [{Name: a, Level: core}, {Name: a, Level: l2cache}]"
            + "|policy.balloons.LoadClasses[1].Name: \"a\" is already the name of another load"
            + " class",
        "LoadClasses: [{Name: a, Level: core, Overloads: true}]"
            + "|policy.balloons.LoadClasses[0].Overloads: unknown key, expected one of Name,"
            + " Level, OverloadsLevelInBalloon"
      })
  void badLoadsAreRefusedNamingFieldValueAndChoices(String yaml, String message) {
    PolicyException e =
        assertThrows(PolicyException.class, () -> BalloonsOptionsTest.parse(yaml.strip()));
    assertEquals(message, e.getMessage());
  }

  @ParameterizedTest
  @CsvSource({"'', 2", "'Loads: [busy]', 3"})
  void balloonsWithACoreLoadTakeCoresNoOtherSuchBalloonUses(String loads, int cores)
      throws Exception {
    PolicyHarness h =
        new PolicyHarness(
            ONE_NODE,
            """
            LoadClasses: [{Name: busy, Level: core}]
            BalloonTypes:
              - Name: hot
                PreferNewBalloons: true
                %s
            """
                .formatted(loads),
            CpuSet.of(0));
    for (String pod : new String[] {"pa", "pb", "pc"}) {
      h.allocate(pod, "c0", 1000, HOT);
    }
    // packing puts the 1-CPU balloons next to each other: hot[1] and hot[2] share a core unless
    // the load keeps every balloon on a core of its own
    CpuSet all =
        h.balloon("hot[0]")
            .cpus()
            .union(h.balloon("hot[1]").cpus())
            .union(h.balloon("hot[2]").cpus());
    assertEquals(3, all.size());
    assertEquals(cores, coresOf(all).size(), all.toString());
  }

  @ParameterizedTest
  @CsvSource({"false, 1", "true, 4"})
  void overloadingTheL2CacheSpreadsABalloonOverL2Caches(boolean overloads, int l2s)
      throws Exception {
    PolicyHarness h =
        new PolicyHarness(
            ONE_NODE,
            """
            LoadClasses: [{Name: stream, Level: l2cache, OverloadsLevelInBalloon: %s}]
            BalloonTypes:
              - Name: hot
                Loads: [stream]
            """
                .formatted(overloads),
            CpuSet.of(0));
    h.allocate("pa", "c0", 4000, HOT);
    CpuSet cpus = h.balloon("hot[0]").cpus();
    assertEquals(4, cpus.size());
    assertEquals(l2s, l2sOf(cpus).size(), cpus.toString());
  }

  private static Set<CpuSet> coresOf(CpuSet cpus) {
    Set<CpuSet> out = new HashSet<>();
    cpus.stream().forEach(c -> out.add(ONE_NODE.coreCpus(c)));
    return out;
  }

  private static Set<CpuSet> l2sOf(CpuSet cpus) {
    Set<CpuSet> out = new HashSet<>();
    for (CpuSet g : ONE_NODE.cacheGroups(2)) {
      if (g.intersects(cpus)) {
        out.add(g);
      }
    }
    return out;
  }
}
