package io.criresmgr.policy.balloons;

import static io.criresmgr.policy.balloons.Preferring.HYBRID;
import static io.criresmgr.policy.balloons.Preferring.ISOLATED;
import static io.criresmgr.policy.balloons.Preferring.options;
import static io.criresmgr.policy.balloons.Preferring.type;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.CoreType;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which CPU sets each balloon type prefers and avoids, in which order, and their effect. */
class CpuPreferencesTest {
  private static final BalloonType FAST = type("fast", false, CoreType.PERFORMANCE);
  private static final BalloonType ECO = type("eco", false, CoreType.EFFICIENT);
  private static final BalloonType ISO_ECO = type("iso-eco", true, CoreType.EFFICIENT);
  private static final BalloonType PLAIN = type("plain", false, null);

  private static String hints(BalloonsOptions options, String name) {
    BalloonType t =
        options.effectiveTypes().stream().filter(x -> x.name().equals(name)).findFirst().get();
    return CpuPreferences.of(t, options.effectiveTypes(), HYBRID).hints().toString();
  }

  @Test
  void ownPreferencesFirstThenIsolatedThenWhatOtherTypesPreferInTheirOrder() {
    BalloonsOptions o = options(false, FAST, ECO, ISO_ECO, PLAIN);
    assertEquals(
        "[prefer performance cores 0-3, avoid isolated CPUs 7, avoid efficient cores 4-7]",
        hints(o, "fast"));
    assertEquals(
        "[prefer isolated CPUs 7, prefer efficient cores 4-7, avoid performance cores 0-3]",
        hints(o, "iso-eco"));
    assertEquals(
        "[avoid isolated CPUs 7, avoid performance cores 0-3, avoid efficient cores 4-7]",
        hints(o, "plain"));
    assertEquals(hints(o, "plain"), hints(o, BalloonType.DEFAULT));
    assertEquals(
        "[avoid isolated CPUs 7, avoid efficient cores 4-7, avoid performance cores 0-3]",
        hints(options(false, ECO, FAST), BalloonType.RESERVED));
  }

  @Test
  void coreTypesNobodyPrefersAreNotAvoided() {
    assertEquals("[avoid isolated CPUs 7]", hints(options(false, PLAIN), "plain"));
    assertEquals("[prefer isolated CPUs 7]", hints(options(false, type("iso", true, null)), "iso"));
  }

  @Test
  void emptySetsGiveNoHints() {
    BalloonsOptions o = options(false, FAST, ISO_ECO, PLAIN);
    var laptop = TopologySpec.builtIn("laptop").topology();
    for (BalloonType t : o.effectiveTypes()) {
      assertEquals(CpuPreferences.NONE, CpuPreferences.of(t, o.effectiveTypes(), laptop));
    }
    assertEquals(
        "[avoid isolated CPUs 6-7,14-15]",
        CpuPreferences.of(FAST, o.effectiveTypes(), ISOLATED).hints().toString());
  }

  @Test
  void narrowKeepsEachHintOnlyWhileEnoughCpusRemain() {
    BalloonsOptions o = options(false, FAST, ECO, PLAIN);
    CpuPreferences fast = CpuPreferences.of(FAST, o.effectiveTypes(), HYBRID);
    CpuSet all = HYBRID.onlineCpus();
    assertEquals(CpuSet.range(0, 3), fast.narrow(all, 4));
    assertEquals(CpuSet.range(0, 6), fast.narrow(all, 5));
    assertEquals(all, fast.narrow(all, 8));
    assertEquals(CpuSet.range(3, 6), fast.narrow(CpuSet.range(3, 7), 3));
    CpuPreferences plain = CpuPreferences.of(PLAIN, o.effectiveTypes(), HYBRID);
    assertEquals(CpuSet.of(4, 5, 6), plain.narrow(all, 3));
    // Avoiding P-cores leaves too few, so E-cores are avoided instead.
    assertEquals(CpuSet.range(0, 3), plain.narrow(all, 4));
  }

  @Test
  void earlierHintsOutweighAllLaterOnes() {
    BalloonsOptions o = options(false, FAST, ECO, PLAIN);
    CpuPreferences fast = CpuPreferences.of(FAST, o.effectiveTypes(), HYBRID);
    // prefer P (4), avoid isolated (2), avoid E (1)
    assertEquals(List.of(7, 7, 7, 7, 2, 2, 2, 0), weights(fast));
    CpuPreferences plain = CpuPreferences.of(PLAIN, o.effectiveTypes(), HYBRID);
    // avoid isolated (4), avoid P (2), avoid E (1)
    assertEquals(List.of(5, 5, 5, 5, 6, 6, 6, 2), weights(plain));
  }

  private static List<Integer> weights(CpuPreferences p) {
    return HYBRID.onlineCpus().stream().map(p::weight).boxed().toList();
  }

  @Test
  void preferringIsolatedCpusAndSharingIdleCpusIsOnlyAWarning() {
    BalloonType both = type("both", true, null, ShareLevel.NUMA);
    Optional<String> w = CpuTreeOptions.warning(both);
    assertEquals(
        Optional.of(
            "balloon type \"both\": using PreferIsolCpus with ShareIdleCPUsInSame is highly"
                + " discouraged: its containers would also run on shared idle CPUs, which are"
                + " never isolated ones"),
        w);
    assertEquals(Optional.empty(), CpuTreeOptions.warning(type("x", true, null)));
    assertEquals(Optional.empty(), CpuTreeOptions.warning(type("y", false, null, ShareLevel.CORE)));
    CpuTreeOptions opts = CpuTreeOptions.of(both, options(false, both), ISOLATED);
    assertTrue(opts.preferences().hints().get(0).prefer());
  }

  @Test
  void optionsOfATypeInheritThePolicySettings() {
    BalloonType own =
        BalloonType.builder("own")
            .allocatorPriority(io.criresmgr.policy.cpuallocator.CpuPriority.LOW)
            .allocatorTopologyBalancing(Boolean.TRUE)
            .build();
    CpuTreeOptions opts = CpuTreeOptions.of(own, options(true, own), ISOLATED);
    assertEquals(
        new CpuTreeOptions(
            true,
            true,
            io.criresmgr.policy.cpuallocator.CpuPriority.LOW,
            new CpuPreferences(
                List.of(new CpuPreferences.Hint("isolated CPUs", CpuSet.of(6, 7, 14, 15), false)))),
        opts);
  }
}
