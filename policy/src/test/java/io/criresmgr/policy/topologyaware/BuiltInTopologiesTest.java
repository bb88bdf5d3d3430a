package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.builtin.BuiltInPolicies;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.SystemTopology;
import io.criresmgr.policy.sysfs.TopologySpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The policy as the daemon creates it (registry provider, sysfs reader on a generated fake sysfs,
 * the options parser, the production request derivation), and on every built-in topology.
 */
class BuiltInTopologiesTest {
  @TempDir Path root;

  @Test
  void theRegisteredProviderReadsAFakeSysfs() {
    TopologySpec spec = TopologySpec.builtIn("n4c16");
    FakeSysfsWriter.write(spec, root);
    SystemTopology t = spec.topology();
    PolicyProvider<?> provider = BuiltInPolicies.registry().require("topology-aware");
    PolicyContext context =
        new PolicyContext(
            root, t.onlineCpus(), CpuSet.range(0, 3), Map.of(), Map.of("CPU", "750m"));
    TopologyAwarePolicy policy =
        (TopologyAwarePolicy)
            provider.parseAndCreate(context, JsonNodeFactory.instance.objectNode());
    assertEquals("root", policy.tree().root().name());
    assertEquals(7, policy.tree().size());
    assertEquals(CpuSet.of(0), policy.tree().reserved());
    Harness h = Harness.withPreferences(t, Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.policy = policy;
    h.guaranteed("pod0", 1, 1000, 100 * MB);
    assertEquals(CpuSet.of(4), h.cpus("pod0c0"));
  }

  @Test
  void c4pmem4FromSysfsAssignsPmemToTheClosestSockets() {
    TopologySpec spec = TopologySpec.builtIn("c4pmem4");
    FakeSysfsWriter.write(spec, root);
    PoolTree tree =
        ((TopologyAwarePolicy)
                new TopologyAwarePolicyProvider()
                    .create(
                        new PolicyContext(
                            root,
                            CpuSet.range(0, 3),
                            CpuSet.range(0, 7),
                            Map.of(),
                            Map.of("CPU", "750m")),
                        TopologyAwareOptions.DEFAULTS))
            .tree();
    assertEquals(
        List.of("socket #0", "socket #1", "socket #2", "socket #3", "root"),
        tree.pools().stream().map(Pool::name).toList());
    assertEquals(CpuSet.of(0, 6), tree.pool(0).memset());
    assertEquals(CpuSet.of(1, 7), tree.pool(1).memset());
    assertEquals(CpuSet.of(2, 4), tree.pool(2).memset());
    assertEquals(CpuSet.of(3, 5), tree.pool(3).memset());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"laptop", "n4c16", "n4c32", "c4pmem4", "n4c128", "n8c448", "tiered", "numaoff"})
  void everyBuiltInTopologyPlacesAMixedWorkload(String name) {
    SystemTopology t = TopologySpec.builtIn(name).topology();
    Harness h = Harness.withPreferences(t, Map.of(), "750m", TopologyAwareOptions.DEFAULTS);
    h.guaranteed("g", 2, 1000, 100 * MB);
    h.create("default", "b", 2, new Resources(250, 1000, 50 * MB, 100 * MB));
    h.create("default", "e", 2, Resources.NONE);
    h.create("kube-system", "k", 1, Resources.NONE);
    h.assertDisjoint("gc0", "gc1", "bc0");
    assertTrue(h.policy.tree().reserved().containsAll(h.cpus("kc0")));
    for (String c : new String[] {"gc0", "gc1", "bc0", "bc1", "ec0", "ec1", "kc0"}) {
      assertTrue(!h.cpus(c).isEmpty() && !h.mems(c).isEmpty(), c);
    }
  }
}
