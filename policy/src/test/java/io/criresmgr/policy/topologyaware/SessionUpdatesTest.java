package io.criresmgr.policy.topologyaware;

import static io.criresmgr.policy.topologyaware.Harness.MB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Decisions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * A decision re-assigns the containers it changed, found through the ledger's indexes rather than
 * by looking at every container: after each decision, every container has the assignment a fresh
 * policy compares every container against (it sends nothing), and the updates after the subject
 * come in the cache's creation order.
 */
class SessionUpdatesTest {
  private final Harness h = new Harness(Topologies.n4c16(), Map.of(), "750m");

  @Test
  void exclusiveGrantsComingAndGoingReassignEveryAffectedSharedContainerInCreationOrder() {
    for (int i = 0; i < 12; i++) {
      h.create("default", "shared" + i, 1, new Resources(100, 400, 10 * MB, 20 * MB));
      assertConsistent("shared" + i + "c0");
    }
    h.create("default", "be", 2, Resources.NONE);
    assertConsistent("bec1");
    int reassigned = 0;
    for (int i = 0; i < 6; i++) {
      h.guaranteed("g" + i, 1, 1000, 10 * MB);
      reassigned += h.last.updates().size() - 1;
      assertConsistent("g" + i + "c0");
    }
    assertTrue(reassigned > 0, "no exclusive grant re-assigned a shared container");
    for (int i = 0; i < 6; i += 2) {
      h.delete("g" + i);
      assertConsistent(null);
    }
    h.delete("shared3");
    assertConsistent(null);
    h.guaranteed("g9", 1, 2000, 10 * MB);
    assertConsistent("g9c0");
  }

  /** The last decision's order, and that a fresh policy would send no update. */
  private void assertConsistent(@Nullable String subject) {
    List<Decisions.Update> updates = h.last.updates();
    int from = 0;
    if (subject != null && !updates.isEmpty()) {
      assertEquals(h.byName(subject).cacheId(), updates.get(0).cacheId(), "subject first");
      from = 1;
    }
    List<Long> seqs = new ArrayList<>();
    for (Decisions.Update u : updates.subList(from, updates.size())) {
      seqs.add(h.node.cache().container(u.cacheId()).map(Container::seq).orElseThrow());
    }
    List<Long> sorted = new ArrayList<>(seqs);
    sorted.sort(null);
    assertEquals(sorted, seqs, "updates in creation order");
    TopologyAwarePolicy fresh =
        Harness.create(
            h.topology, Map.of(), "750m", TopologyAwareOptions.DEFAULTS, h.requests, h.clock);
    assertEquals(List.of(), fresh.start(h.node.cache()).updates(), "missed re-assignments");
  }
}
