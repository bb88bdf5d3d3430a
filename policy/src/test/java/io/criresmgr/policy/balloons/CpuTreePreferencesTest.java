package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.Preferring.HYBRID;
import static io.criresmgr.policy.balloons.Preferring.ISOLATED;
import static io.criresmgr.policy.balloons.Preferring.allocator;
import static io.criresmgr.policy.balloons.Preferring.options;
import static io.criresmgr.policy.balloons.Preferring.resize;
import static io.criresmgr.policy.balloons.Preferring.type;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.SystemTopology;
import org.junit.jupiter.api.Test;

/** The CPUs balloon types with {@code PreferIsolCpus} and {@code PreferCoreType} gain and lose. */
class CpuTreePreferencesTest {
  private static final BalloonType ISO = type("iso", true, null);
  private static final BalloonType PLAIN = type("plain", false, null);
  private static final BalloonType FAST = type("fast", false, CoreType.PERFORMANCE);
  private static final BalloonType ECO = type("eco", false, CoreType.EFFICIENT);
  private static final BalloonType ISO_ECO = type("iso-eco", true, CoreType.EFFICIENT);

  private static final BalloonsOptions ISOLATING = options(false, ISO, PLAIN);
  private static final BalloonsOptions HYBRIDS = options(false, FAST, ECO, ISO_ECO, PLAIN);

  private static CpuSet grow(SystemTopology t, BalloonsOptions o, BalloonType type, int delta) {
    return resize(allocator(t, o, type), t, CpuSet.EMPTY, delta);
  }

  @Test
  void typesNotPreferringIsolatedCpusInflateAroundThem() {
    assertEquals(CpuSet.range(0, 3), grow(ISOLATED, ISOLATING, PLAIN, 4));
    assertEquals(CpuSet.parse("0-5,8-13"), grow(ISOLATED, ISOLATING, PLAIN, 12));
    // Thirteen: too few non-isolated CPUs, so all free CPUs count.
    assertEquals(CpuSet.range(0, 12), grow(ISOLATED, ISOLATING, PLAIN, 13));
    CpuTreeAllocator plain = allocator(ISOLATED, ISOLATING, PLAIN);
    // Node 0 has only its isolated core left: node 1's first core by name (cpu10 < cpu8).
    assertEquals(CpuSet.of(10, 11), plain.resize(CpuSet.range(0, 5), CpuSet.range(6, 15), 2));
    assertEquals(
        CpuSet.of(6, 7), plain.resize(CpuSet.parse("0-5,8-13"), CpuSet.parse("6-7,14-15"), 2));
  }

  @Test
  void typesPreferringIsolatedCpusTakeThemWhileEnoughAreFree() {
    assertEquals(CpuSet.of(6, 7), grow(ISOLATED, ISOLATING, ISO, 2));
    assertEquals(CpuSet.parse("6-7,14-15"), grow(ISOLATED, ISOLATING, ISO, 4));
    CpuTreeAllocator iso = allocator(ISOLATED, ISOLATING, ISO);
    assertEquals(CpuSet.of(14, 15), iso.resize(CpuSet.of(6, 7), CpuSet.parse("0-5,8-15"), 2));
    assertEquals(CpuSet.of(14), iso.resize(CpuSet.of(6, 7), CpuSet.parse("0-5,8-14"), 1));
    // Five: the four isolated CPUs are too few, so all free CPUs count (as in nri-plugins).
    assertEquals(CpuSet.range(0, 4), grow(ISOLATED, ISOLATING, ISO, 5));
  }

  @Test
  void deflatingReleasesTheLeastWantedCpusFirst() {
    CpuSet current = CpuSet.range(4, 7);
    CpuSet free = ISOLATED.onlineCpus().difference(current);
    CpuTreeAllocator plain = allocator(ISOLATED, ISOLATING, PLAIN);
    CpuTreeAllocator iso = allocator(ISOLATED, ISOLATING, ISO);
    assertEquals(CpuSet.of(7), plain.resize(current, free, -1));
    assertEquals(CpuSet.of(6, 7), plain.resize(current, free, -2));
    assertEquals(CpuSet.range(5, 7), plain.resize(current, free, -3));
    assertEquals(CpuSet.of(5), iso.resize(current, free, -1));
    assertEquals(CpuSet.of(4, 5), iso.resize(current, free, -2));
  }

  @Test
  void deflatingAMixedBalloonKeepsThePreferredCpus() {
    CpuSet current = CpuSet.parse("0-1,6-7,14-15");
    CpuSet free = ISOLATED.onlineCpus().difference(current);
    CpuTreeAllocator iso = allocator(ISOLATED, ISOLATING, ISO);
    assertEquals(CpuSet.of(0, 1), iso.resize(current, free, -2));
    assertEquals(CpuSet.of(0, 1, 7), iso.resize(current, free, -3));
    CpuTreeAllocator plain = allocator(ISOLATED, ISOLATING, PLAIN);
    assertEquals(CpuSet.parse("6-7,14-15"), plain.resize(current, free, -4));
  }

  @Test
  void coreTypePreferencesOnAHybridMachine() {
    assertEquals(CpuSet.range(0, 2), grow(HYBRID, HYBRIDS, FAST, 3));
    assertEquals(CpuSet.range(0, 3), grow(HYBRID, HYBRIDS, FAST, 4));
    // Five: too few P-cores; still not the isolated CPU 7.
    assertEquals(CpuSet.range(0, 4), grow(HYBRID, HYBRIDS, FAST, 5));
    assertEquals(CpuSet.range(4, 6), grow(HYBRID, HYBRIDS, ECO, 3));
    assertEquals(CpuSet.range(4, 7), grow(HYBRID, HYBRIDS, ECO, 4));
    assertEquals(CpuSet.of(7), grow(HYBRID, HYBRIDS, ISO_ECO, 1));
    assertEquals(CpuSet.of(4, 5), grow(HYBRID, HYBRIDS, ISO_ECO, 2));
  }

  @Test
  void typesWithoutPreferenceAvoidIsolatedThenPreferredCoreTypes() {
    // "plain" avoids the isolated CPU 7, then the P-cores "fast" prefers, then the E-cores.
    assertEquals(CpuSet.of(4, 5), grow(HYBRID, HYBRIDS, PLAIN, 2));
    assertEquals(CpuSet.range(4, 6), grow(HYBRID, HYBRIDS, PLAIN, 3));
    // Four: too few non-isolated E-cores, so it avoids the E-cores instead.
    assertEquals(CpuSet.range(0, 3), grow(HYBRID, HYBRIDS, PLAIN, 4));
  }

  @Test
  void hybridDeflateReleasesOtherCoreTypesAndIsolatedCpusFirst() {
    CpuSet current = CpuSet.of(2, 3, 4, 7);
    CpuSet free = HYBRID.onlineCpus().difference(current);
    CpuTreeAllocator fast = allocator(HYBRID, HYBRIDS, FAST);
    assertEquals(CpuSet.of(7), fast.resize(current, free, -1));
    assertEquals(CpuSet.of(4, 7), fast.resize(current, free, -2));
    CpuTreeAllocator isoEco = allocator(HYBRID, HYBRIDS, ISO_ECO);
    assertEquals(CpuSet.of(2, 3), isoEco.resize(current, free, -2));
    assertEquals(CpuSet.of(2, 3, 4), isoEco.resize(current, free, -3));
  }

  @Test
  void spreadingOnPhysicalCoresStillAvoidsIsolatedCpus() {
    BalloonsOptions spread = options(true, ISO, PLAIN);
    assertEquals(CpuSet.of(0, 2, 4), grow(ISOLATED, spread, PLAIN, 3));
    // The balloon's node first, then its first threads: 6's sibling 7 before node 1.
    assertEquals(CpuSet.of(6, 7), grow(ISOLATED, spread, ISO, 2));
  }

  @Test
  void withoutIsolatedOrHybridCpusNothingChanges() {
    Balloons plain = Balloons.int5(2, 2, 2, 2, 2, false, false);
    CpuTreeAllocator withOptions = allocator(plain.topology, HYBRIDS, FAST);
    assertEquals(CpuPreferences.NONE, withOptions.options().preferences());
    CpuSet all = plain.topology.onlineCpus();
    CpuSet cpus = CpuSet.EMPTY;
    for (int delta : new int[] {3, 5, -2, 7, -6}) {
      CpuSet expected = plain.allocator.resize(cpus, all.difference(cpus), delta);
      assertEquals(expected, withOptions.resize(cpus, all.difference(cpus), delta));
      cpus = delta > 0 ? cpus.union(expected) : cpus.difference(expected);
    }
  }
}
