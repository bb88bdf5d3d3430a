package io.criresmgr.policy.template;

import static io.criresmgr.policy.FakeNode.cpu;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Resources;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.Explanation;
import io.criresmgr.policy.FakeNode;
import io.criresmgr.policy.PolicyException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TemplatePolicyTest {
  private static final CpuSet MEMS = CpuSet.of(0, 1);
  private final FakeNode node = new FakeNode(TemplatePolicyProvider.NAME);
  private TemplatePolicy policy =
      new TemplatePolicy(CpuSet.range(0, 3), MEMS, TemplateOptions.DEFAULTS);

  private Decisions allocate(String name, Resources r) {
    Container c = node.create("p", name, r);
    Decisions d = policy.allocate(c, node.cache());
    node.apply(d);
    node.setState(c.cacheId(), ContainerState.RUNNING);
    return d;
  }

  private Decisions release(String name) {
    Container c = node.setState("uid-p:" + name, ContainerState.EXITED);
    Decisions d = policy.release(c, node.cache());
    node.apply(d);
    return d;
  }

  private static Decisions.Update update(String name, String cpus) {
    return new Decisions.Update("uid-p:" + name, Assignment.of(CpuSet.parse(cpus), MEMS));
  }

  /**
   * What placing {@code name} in the shared pool {@code cpus} decides: {@code updates}, explained.
   */
  private static Decisions shared(String name, String cpus, Decisions.Update... updates) {
    return Decisions.of(List.of(updates))
        .withExplanation("uid-p:" + name, Explanation.of("template: the shared pool " + cpus));
  }

  /** What giving {@code name} exclusive {@code cpus} decides: {@code updates}, explained. */
  private static Decisions exclusive(String name, String cpus, Decisions.Update... updates) {
    return Decisions.of(List.of(updates))
        .withExplanation(
            "uid-p:" + name,
            Explanation.of(
                "template: exclusive CPUs "
                    + cpus
                    + " (whole CPUs requested, equal to the limit)"));
  }

  private CpuSet cpusOf(String name) {
    return node.container("uid-p:" + name).assignment().cpus();
  }

  @Test
  void sharedContainersGetEveryAllowedCpuAndEveryMemoryNode() {
    assertEquals(shared("a", "0-3", update("a", "0-3")), allocate("a", cpu(500, 1000)));
    assertEquals(shared("b", "0-3", update("b", "0-3")), allocate("b", Resources.NONE));
  }

  @Test
  void newOptionsMoveExclusiveContainersOffCpusNoLongerAllowed() {
    allocate("a", cpu(2000, 2000));
    allocate("s", cpu(500, 1000));
    assertEquals(CpuSet.parse("0-1"), cpusOf("a"));
    policy = new TemplatePolicy(CpuSet.range(1, 3), MEMS, TemplateOptions.DEFAULTS);
    Decisions d = policy.reconfigure(node.cache());
    assertEquals(Decisions.of(List.of(update("a", "1-2"), update("s", "3"))), d);
  }

  @Test
  void newOptionsAnExclusiveContainerNoLongerFitsAreRefusedNamingIt() {
    allocate("a", cpu(2000, 2000));
    policy = new TemplatePolicy(CpuSet.of(3), MEMS, TemplateOptions.DEFAULTS);
    PolicyException e = assertThrows(PolicyException.class, () -> policy.reconfigure(node.cache()));
    assertEquals(
        "container uid-p:a would not fit: not enough free CPUs for exclusive allocation of 2 CPUs"
            + " to uid-p:a: 1 free (3)",
        e.getMessage());
  }

  @Test
  void exclusiveAllocationTakesTheLowestFreeCpus() {
    allocate("a", cpu(1000, 1000));
    allocate("b", cpu(2000, 2000));
    release("a");
    assertEquals(exclusive("c", "0", update("c", "0")), allocate("c", cpu(1000, 1000)));
    assertEquals(CpuSet.range(1, 2), cpusOf("b"));
  }

  @Test
  void sharedPoolShrinksAndGrowsWithUpdatesInCreationOrder() {
    allocate("s1", cpu(100, 0));
    allocate("s2", Resources.NONE);
    assertEquals(
        exclusive("x", "0-1", update("x", "0-1"), update("s1", "2-3"), update("s2", "2-3")),
        allocate("x", cpu(2000, 2000)));
    assertEquals(shared("s3", "2-3", update("s3", "2-3")), allocate("s3", cpu(250, 500)));
    assertEquals(
        Decisions.of(List.of(update("s1", "0-3"), update("s2", "0-3"), update("s3", "0-3"))),
        release("x"));
  }

  @Test
  void notEnoughFreeCpusIsRefusedWithTheCountsAndTheFreeCpus() {
    allocate("x", cpu(3000, 3000));
    Container c = node.create("p", "y", cpu(2000, 2000));
    PolicyException e = assertThrows(PolicyException.class, () -> policy.allocate(c, node.cache()));
    assertEquals(
        "not enough free CPUs for exclusive allocation of 2 CPUs to uid-p:y: 1 free (3)",
        e.getMessage());
  }

  @Test
  void anExclusiveAllocationMayNotTakeTheLastSharedCpus() {
    allocate("x", cpu(2000, 2000));
    allocate("s", Resources.NONE);
    Container c = node.create("p", "y", cpu(2000, 2000));
    PolicyException e = assertThrows(PolicyException.class, () -> policy.allocate(c, node.cache()));
    assertEquals(
        "exclusive allocation of 2 CPUs to uid-p:y refused: it would take the last shared CPUs"
            + " (2-3) from 1 shared container(s): uid-p:s",
        e.getMessage());
  }

  @Test
  void exclusiveContainersMayTakeEverythingWhenNoOneShares() {
    allocate("x", cpu(2000, 2000));
    assertEquals(exclusive("y", "2-3", update("y", "2-3")), allocate("y", cpu(2000, 2000)));
    Container c = node.create("p", "s", Resources.NONE);
    PolicyException e = assertThrows(PolicyException.class, () -> policy.allocate(c, node.cache()));
    assertEquals(
        "no shared CPUs left for uid-p:s: all allowed CPUs (0-3) are held exclusively; release an"
            + " exclusive container or allow more CPUs",
        e.getMessage());
  }

  @Test
  void onlyWholeCpuRequestsEqualToTheLimitAreExclusive() {
    TemplatePolicy p = policy;
    assertEquals(2, p.wantedExclusive(node.create("p", "a", cpu(2000, 2000))));
    assertEquals(0, p.wantedExclusive(node.create("p", "b", cpu(1500, 1500))));
    assertEquals(0, p.wantedExclusive(node.create("p", "c", cpu(1000, 2000))));
    assertEquals(0, p.wantedExclusive(node.create("p", "d", cpu(500, 500))));
    assertEquals(0, p.wantedExclusive(node.create("p", "e", Resources.NONE)));
  }

  @Test
  void allocatingAgainKeepsTheHeldCpus() {
    allocate("a", cpu(1000, 1000));
    allocate("b", cpu(1000, 1000));
    release("a");
    Container b = node.container("uid-p:b");
    assertEquals(exclusive("b", "1", update("b", "1")), policy.allocate(b, node.cache()));
  }

  @Test
  void updateToSharedReturnsTheCpusToThePool() {
    allocate("s", Resources.NONE);
    allocate("x", cpu(2000, 2000));
    Container x = node.setResources("uid-p:x", cpu(500, 2000));
    assertEquals(
        shared("x", "0-3", update("x", "0-3"), update("s", "0-3")), policy.update(x, node.cache()));
  }

  @Test
  void updateToMoreCpusTakesTheLowestFreeOnes() {
    allocate("x", cpu(1000, 1000));
    allocate("y", cpu(1000, 1000));
    Container x = node.setResources("uid-p:x", cpu(2000, 2000));
    assertEquals(exclusive("x", "0,2", update("x", "0,2")), policy.update(x, node.cache()));
  }

  @Test
  void rebalanceMovesSharedContainersWithForeignCpusetsToThePool() {
    allocate("x", cpu(1000, 1000));
    allocate("s", Resources.NONE);
    foreignAssignment("s", CpuSet.of(2));
    assertEquals(Decisions.of(List.of(update("s", "1-3"))), policy.rebalance(node.cache()));
  }

  @Test
  void cpusASharedContainerUsesAreNotExclusive() {
    allocate("x", cpu(1000, 1000));
    allocate("s", Resources.NONE);
    foreignAssignment("s", CpuSet.of(0));
    assertEquals(
        Decisions.of(List.of(update("x", "0-3"), update("s", "0-3"))),
        policy.rebalance(node.cache()));
  }

  /** An assignment the policy did not make (another policy's, say). */
  private void foreignAssignment(String name, CpuSet cpus) {
    node.cache()
        .applyAssignments(Map.of("uid-p:" + name, Assignment.of(cpus, CpuSet.EMPTY)), Set.of());
  }

  @Test
  void withoutExclusiveCpusEveryoneShares() {
    policy = new TemplatePolicy(CpuSet.range(0, 3), MEMS, new TemplateOptions(false));
    assertEquals(shared("x", "0-3", update("x", "0-3")), allocate("x", cpu(2000, 2000)));
  }

  @Test
  void introspectionShowsAllowedSharedAndExclusiveCpus() {
    allocate("x", cpu(1000, 1000));
    allocate("s", Resources.NONE);
    assertEquals(
        "{\"allowed\":\"0-3\",\"sharedPool\":\"1-3\",\"mems\":\"0-1\","
            + "\"exclusive\":{\"uid-p:x\":\"0\"},\"options\":{\"ExclusiveCpus\":true}}",
        policy.introspect(node.cache()).toString());
  }

  @Test
  void metricsCountSharedAndExclusiveCpus() {
    allocate("x", cpu(1000, 1000));
    assertEquals(
        List.of(3.0, 1.0), policy.collect(node.cache()).stream().map(g -> g.value()).toList());
    assertEquals(
        List.of("cri_resmgr_template_shared_cpus", "cri_resmgr_template_exclusive_cpus"),
        policy.collect(node.cache()).stream().map(g -> g.name()).toList());
  }
}
