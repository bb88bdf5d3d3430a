package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.PolicyException;
import org.junit.jupiter.api.Test;

/**
 * The reference's balloons e2e scenarios ({@code test/e2e/policies.test-suite/balloons}, n4c16: 2
 * packages, 4 NUMA nodes of 4 CPUs, 2 threads per core) worked through the policy directly: test01,
 * test03, test05, test07.
 */
class BalloonsReferenceTest extends BalloonsReviewFixture {

  @Test
  void test01BasicPlacement() throws Exception {
    BalloonsPolicy p = policy(SUITE, CpuSet.parse("1-15"), CpuSet.of(1));
    allocate(p, "kube-system", "pod0", "", "pod0c0", 1000);
    allocate(p, "kube-system", "pod0", "", "pod0c1", 1000);
    assertEquals(CpuSet.of(1), cpus("pod0", "pod0c0"));
    assertEquals(CpuSet.of(1), cpus("pod0", "pod0c1"));
    // 2: same-pod wins over PreferNewBalloons
    allocate(p, "default", "pod1", "two-cpu", "pod1c0", 100);
    allocate(p, "default", "pod1", "two-cpu", "pod1c1", 100);
    assertEquals(cpus("pod1", "pod1c0"), cpus("pod1", "pod1c1"));
    assertEquals(2, cpus("pod1", "pod1c0").size());
    // 3: a new balloon is preferred
    allocate(p, "default", "pod2", "two-cpu", "pod2c0", 100);
    assertEquals(2, cpus("pod2", "pod2c0").size());
    assertDisjoint(cpus("pod2", "pod2c0"), cpus("pod1", "pod1c0"));
    // 4: namespace three, spreading pods, MinCPUs 3
    allocate(p, "three", "pod3", "", "pod3c0", 1500);
    allocate(p, "three", "pod3", "", "pod3c1", 1500);
    assertEquals(cpus("pod3", "pod3c0"), cpus("pod3", "pod3c1"));
    assertEquals(3, cpus("pod3", "pod3c0").size());
    // 5: cleanup
    releaseAll(p, "pod0c0", "pod0c1", "pod1c0", "pod1c1", "pod2c0", "pod3c0", "pod3c1");
    // 6: c0 and c1 inflate four-cpu[0] to 6, c2 does not fit under MaxCPUs 8
    allocate(p, "default", "pod4", "four-cpu", "pod4c0", 3000);
    allocate(p, "default", "pod4", "four-cpu", "pod4c1", 3000);
    allocate(p, "default", "pod4", "four-cpu", "pod4c2", 3000);
    assertEquals(cpus("pod4", "pod4c0"), cpus("pod4", "pod4c1"));
    assertEquals(6, cpus("pod4", "pod4c0").size());
    assertEquals(4, cpus("pod4", "pod4c2").size());
    assertDisjoint(cpus("pod4", "pod4c2"), cpus("pod4", "pod4c0"));
    releaseAll(p, "pod4c0", "pod4c1", "pod4c2");
    // 7: spreading pods, new balloons preferred
    allocate(p, "default", "pod5", "five-cpu", "pod5c0", 1250);
    allocate(p, "default", "pod5", "five-cpu", "pod5c1", 1250);
    allocate(p, "default", "pod5", "five-cpu", "pod5c2", 1250);
    assertEquals(2, cpus("pod5", "pod5c0").size());
    assertEquals(2, cpus("pod5", "pod5c1").size());
    assertEquals(2, cpus("pod5", "pod5c2").size());
    assertDisjoint(cpus("pod5", "pod5c0"), cpus("pod5", "pod5c1"), cpus("pod5", "pod5c2"));
  }

  @Test
  void test03Reserved() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            IdleCPUClass: idle-class
            ReservedPoolNamespaces: ["monitor-*", "*-log*"]
            BalloonTypes:
              - {Name: reserved, Namespaces: [my-exact-name], CPUClass: reserved-class}
              - {Name: default, MinCPUs: 1}
              - {Name: full-core, MinCPUs: 2, MaxCPUs: 2, CPUClass: turbo, MinBalloons: 2}
            """,
            N4C16.onlineCpus(),
            CpuSet.parse("0-2"));
    CpuSet reserved = CpuSet.parse("0-2");
    allocate(p, "kube-system", "pod0", "", "pod0c0", 100);
    assertEquals(reserved, cpus("pod0", "pod0c0"));
    allocate(p, "monitor-mypods", "pod1", "", "pod1c0", 1000);
    allocate(p, "monitor-mypods", "pod1", "", "pod1c1", 1000);
    assertEquals(reserved, cpus("pod1", "pod1c0"));
    assertEquals(reserved, cpus("pod1", "pod1c1"));
    allocate(p, "system-logs", "pod2", "", "pod2c0", 1000); // reserved may be overbooked
    assertEquals(reserved, cpus("pod2", "pod2c0"));
    allocate(p, "kube-system", "pod3", "full-core", "pod3c0", 2000);
    assertEquals(2, cpus("pod3", "pod3c0").size());
    assertDisjoint(reserved, cpus("pod3", "pod3c0"));
    allocate(p, "default", "pod4", "", "pod4c0", 2500);
    assertEquals(3, cpus("pod4", "pod4c0").size());
    assertDisjoint(reserved, cpus("pod3", "pod3c0"), cpus("pod4", "pod4c0"));
    allocate(p, "default", "pod5", "reserved", "pod5c0", 2500);
    assertEquals(reserved, cpus("pod5", "pod5c0"));
    releaseAll(p, "pod0c0", "pod1c0", "pod1c1", "pod2c0", "pod3c0", "pod4c0", "pod5c0");
    allocate(p, "default", "pod6", "", "pod6c0", 999); // deflated to MinCPUs 1, not popped
    assertEquals(1, cpus("pod6", "pod6c0").size());
    assertDisjoint(reserved, cpus("pod6", "pod6c0"));
    allocate(p, "kube-system", "pod7", "", "pod7c0", 100);
    assertEquals(reserved, cpus("pod7", "pod7c0"));
  }

  @Test
  void test07MaxBalloons() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: singleton, MinCPUs: 2, MaxCPUs: 2, MinBalloons: 1, MaxBalloons: 1}
              - {Name: dynamictwo, MaxCPUs: 1, MaxBalloons: 2}
            """,
            N4C16.onlineCpus(),
            CpuSet.of(0));
    allocate(p, "default", "pod0", "singleton", "pod0c0", 1500);
    assertEquals(2, cpus("pod0", "pod0c0").size());
    allocate(p, "default", "pod1", "singleton", "pod1c0", 500);
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod1", "pod1c0"));
    PolicyException e =
        assertThrows(
            PolicyException.class, () -> allocate(p, "default", "pod2", "singleton", "c", 100));
    assertTrue(e.getMessage().startsWith("no suitable balloon instance available"), e.getMessage());
    node.cache().removeContainer(BalloonsNode.id("pod2", "c"));
    node.cache().removePod("sandbox-pod2");
    allocate(p, "default", "pod2", "dynamictwo", "pod2c0", 800);
    assertEquals(1, cpus("pod2", "pod2c0").size());
    allocate(p, "default", "pod3", "dynamictwo", "pod3c0", 600);
    assertDisjoint(cpus("pod2", "pod2c0"), cpus("pod3", "pod3c0"));
    allocate(p, "default", "pod4", "dynamictwo", "pod4c0", 300);
    assertEquals(cpus("pod3", "pod3c0"), cpus("pod4", "pod4c0"));
    e =
        assertThrows(
            PolicyException.class, () -> allocate(p, "default", "pod5", "dynamictwo", "c", 300));
    assertTrue(e.getMessage().startsWith("no suitable balloon instance available"), e.getMessage());
  }

  @Test
  void test05Namespace() throws Exception {
    BalloonsPolicy p =
        policy(
            """
            BalloonTypes:
              - {Name: nsballoon, Namespaces: ["*"], MinCPUs: 2, MaxCPUs: 4,
                 PreferPerNamespaceBalloon: true}
            """,
            N4C16.onlineCpus(),
            CpuSet.of(1));
    pair(p, "default", "pod0", 0);
    assertEquals(2, cpus("pod0", "pod0c0").size());
    pair(p, "e2e-a", "pod1", 0);
    assertDisjoint(cpus("pod0", "pod0c0"), cpus("pod1", "pod1c0"));
    pair(p, "default", "pod2", 2000);
    assertEquals(4, cpus("pod2", "pod2c0").size());
    assertEquals(cpus("pod0", "pod0c0"), cpus("pod2", "pod2c0"));
    assertDisjoint(cpus("pod2", "pod2c0"), cpus("pod1", "pod1c0"));
    pair(p, "default", "pod3", 100); // nsballoon[0] is full at MaxCPUs 4: a new balloon
    assertEquals(2, cpus("pod3", "pod3c0").size());
    assertDisjoint(cpus("pod3", "pod3c0"), cpus("pod2", "pod2c0"), cpus("pod1", "pod1c0"));
    pair(p, "e2e-b", "pod4", 2000);
    assertEquals(4, cpus("pod4", "pod4c0").size());
    pair(p, "e2e-c", "pod5", 100);
    assertEquals(2, cpus("pod5", "pod5c0").size());
    assertDisjoint(
        cpus("pod5", "pod5c0"),
        cpus("pod4", "pod4c0"),
        cpus("pod3", "pod3c0"),
        cpus("pod2", "pod2c0"),
        cpus("pod1", "pod1c0"));
    pair(p, "e2e-d", "pod6", 100); // no room for a new balloon: balanced
    assertEquals(cpus("pod1", "pod1c0"), cpus("pod6", "pod6c0"));
  }
}
