package io.criresmgr.policy.cpuallocator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.SystemTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The allocator picks what the slow model of cri-resmgr's rules picks, on random requests. */
class ReferenceModelTest {
  private static final List<CpuPriority> PRIORITIES =
      List.of(CpuPriority.HIGH, CpuPriority.NORMAL, CpuPriority.LOW, CpuPriority.NONE);

  private static void agreeOnRandomRequests(
      SystemTopology topology, Map<CpuPriority, CpuSet> classes, long seed) {
    CpuAllocator allocator = new CpuAllocator(topology, classes);
    int[] online = topology.onlineCpus().stream().toArray();
    Random random = new Random(seed);
    for (int round = 0; round < 400; round++) {
      double density = 0.2 + 0.8 * random.nextDouble();
      List<Integer> ids = new ArrayList<>();
      for (int id : online) {
        if (random.nextDouble() < density) {
          ids.add(id);
        }
      }
      if (ids.size() < 2) {
        continue;
      }
      CpuSet from = CpuSet.of(ids);
      int count = 1 + random.nextInt(from.size() - 1);
      CpuPriority prefer = PRIORITIES.get(random.nextInt(PRIORITIES.size()));
      assertEquals(
          ReferenceModel.allocate(topology, classes, from, count, prefer),
          allocator.allocate(from, count, prefer),
          () -> count + " from " + from + " preferring " + prefer);
    }
  }

  @Test
  void onTheReferenceServerWithFakedPriorities() {
    agreeOnRandomRequests(GridTopology.server80().build(), AllocatorHelperTest.FAKED, 1);
  }

  @Test
  void onNumaVmLayoutsWithMixedPriorities() {
    Map<CpuPriority, CpuSet> mixed =
        Map.of(
            CpuPriority.HIGH, CpuSet.parse("1,4,9-11"),
            CpuPriority.LOW, CpuSet.parse("0,5,12-14,16-40"));
    agreeOnRandomRequests(GridTopology.n4c16().build(), mixed, 2);
    agreeOnRandomRequests(new GridTopology(3, 2, 3, 2, true).build(), mixed, 3);
    agreeOnRandomRequests(new GridTopology(4, 1, 2, 4, false).build(), mixed, 4);
  }

  @Test
  void onLayoutsWithoutHyperthreads() {
    agreeOnRandomRequests(
        new GridTopology(2, 2, 8, 1, false).build(),
        Map.of(CpuPriority.HIGH, CpuSet.parse("3-6,20-22")),
        5);
  }
}
