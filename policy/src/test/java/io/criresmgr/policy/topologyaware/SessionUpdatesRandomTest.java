package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.PolicyException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random runs of shared, best-effort and Guaranteed (whole and fractional) pods created and
 * deleted: after each decision, which re-assigns only the containers found through the ledger's
 * indexes, a fresh policy comparing every container sends no update.
 */
class SessionUpdatesRandomTest {
  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4})
  void noReassignmentIsMissed(long seed) {
    Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");
    Random random = new Random(seed);
    List<String> pods = new ArrayList<>();
    for (int step = 0; step < 150; step++) {
      String where = "seed " + seed + ", step " + step;
      if (!pods.isEmpty() && random.nextInt(3) == 0) {
        h.delete(pods.remove(random.nextInt(pods.size())));
      } else {
        String pod = "p" + step;
        try {
          switch (random.nextInt(4)) {
            case 0 -> h.create("default", pod, 1 + random.nextInt(2), shared(random));
            case 1 -> h.create("default", pod, 1, Resources.NONE);
            case 2 -> h.guaranteed(pod, 1, 1000L * (1 + random.nextInt(3)), 10 * MB);
            default -> h.guaranteed(pod, 1, 1500, 10 * MB);
          }
          pods.add(pod);
        } catch (PolicyException e) {
          for (Container c : h.node.cache().containers()) {
            if (c.podId().equals("sandbox-" + pod)) {
              h.node.cache().removeContainer(c.cacheId());
            }
          }
          h.node.cache().removePod("sandbox-" + pod);
          continue;
        }
      }
      TopologyAwarePolicy fresh =
          Harness.create(
              h.topology, Map.of(), "750m", TopologyAwareOptions.DEFAULTS, h.requests, h.clock);
      assertEquals(List.of(), fresh.start(h.node.cache()).updates(), where);
    }
  }

  private static Resources shared(Random random) {
    long req = 100L * (1 + random.nextInt(8));
    return new Resources(req, 2 * req, 10 * MB, 20 * MB);
  }
}
