package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeCacheTest {
  private final NodeCache cache = new NodeCache();

  @Test
  void indexesContainersByRuntimeId() {
    Container created = Fixtures.container("u1", "app", "", 1);
    cache.putContainer(created);
    assertEquals(Optional.empty(), cache.containerById(""));
    cache.putContainer(created.withId("c1"));
    assertEquals("u1:app", cache.containerById("c1").orElseThrow().cacheId());
    // Re-created under the same name: the new runtime id replaces the old one.
    cache.putContainer(created.withId("c2"));
    assertEquals(Optional.empty(), cache.containerById("c1"));
    assertEquals("c2", cache.containerById("c2").orElseThrow().id());
    cache.removeContainer("u1:app");
    assertEquals(Optional.empty(), cache.containerById("c2"));
    assertEquals(Optional.empty(), cache.container("u1:app"));
  }

  @Test
  void lookupsWithoutOptionalAnswerAsTheOptionalOnes() {
    Container c = Fixtures.container("u1", "app", "c1", 1);
    cache.putContainer(c);
    cache.putPod(Fixtures.pod("p1", "u1"));
    NodeState view = cache;
    assertEquals(c, view.containerOrNull("u1:app"));
    assertEquals(view.pod("p1").orElseThrow(), view.podOrNull("p1"));
    assertNull(view.containerOrNull("u1:other"));
    assertNull(view.podOrNull("p2"));
    cache.removeContainer("u1:app");
    assertNull(view.containerOrNull("u1:app"));
  }

  @Test
  void removingAnotherContainerKeepsTheIndexOfTheNewOwnerOfAnId() {
    cache.putContainer(Fixtures.container("u1", "a", "c1", 1));
    cache.putContainer(Fixtures.container("u1", "b", "c1", 2));
    cache.removeContainer("u1:a");
    assertEquals("u1:b", cache.containerById("c1").orElseThrow().cacheId());
  }

  @Test
  void appliesAssignmentsAndMarksChangedContainersPending() {
    cache.putContainer(Fixtures.container("u1", "a", "c1", 1));
    cache.putContainer(Fixtures.container("u1", "b", "c2", 2));
    Assignment pinned = Assignment.of(CpuSet.of(0), CpuSet.EMPTY);
    cache.applyAssignments(Map.of("u1:a", pinned, "u1:b", Assignment.NONE), Set.of("cri", "rdt"));
    Container a = cache.container("u1:a").orElseThrow();
    assertEquals(pinned, a.assignment());
    assertEquals(Set.of("cri", "rdt"), a.pending());
    assertEquals(
        Set.of(), cache.container("u1:b").orElseThrow().pending(), "unchanged: not pending");

    cache.putContainer(a.withoutPending("cri"));
    assertEquals(Set.of("rdt"), cache.container("u1:a").orElseThrow().pending());
    cache.applyAssignments(Map.of("u1:a", pinned.withCpus(CpuSet.of(1))), Set.of("cri"));
    assertEquals(
        List.of("cri", "rdt"), List.copyOf(cache.container("u1:a").orElseThrow().pending()));
  }

  @Test
  void appliesNothingWhenAnIdIsUnknown() {
    cache.putContainer(Fixtures.container("u1", "a", "c1", 1));
    long changes = cache.changes();
    Map<String, Assignment> assignments = new LinkedHashMap<>();
    assignments.put("u1:a", Assignment.of(CpuSet.of(0), CpuSet.EMPTY));
    assignments.put("u1:gone", Assignment.of(CpuSet.of(1), CpuSet.EMPTY));
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> cache.applyAssignments(assignments, Set.of("cri")));
    assertEquals("assignment for unknown container u1:gone", e.getMessage());
    assertEquals(Assignment.NONE, cache.container("u1:a").orElseThrow().assignment());
    assertEquals(changes, cache.changes());
  }

  @Test
  void listsContainersInCreationOrder() {
    cache.putContainer(Fixtures.container("u2", "z", "c3", 5));
    cache.putContainer(Fixtures.container("u1", "b", "c2", 2));
    cache.putContainer(Fixtures.container("u1", "a", "c1", 2));
    cache.putContainer(Fixtures.container("u1", "c", "c4", 9));
    assertEquals(
        List.of("u1:a", "u1:b", "u2:z", "u1:c"),
        cache.containers().stream().map(Container::cacheId).toList());
    assertEquals(
        List.of("u1:a", "u1:b", "u1:c"),
        cache.containersOf("sandbox-u1").stream().map(Container::cacheId).toList());
    assertEquals(10, cache.nextSeq(), "sequence numbers continue after the largest seen");
    assertEquals(11, cache.nextSeq());
  }

  @Test
  void theOrderFollowsReplacementsRemovalsAndNewSequenceNumbers() {
    cache.putContainer(Fixtures.container("u1", "a", "c1", 1));
    cache.putContainer(Fixtures.container("u1", "b", "c2", 2));
    cache.putContainer(Fixtures.container("u1", "c", "c3", 3));
    List<Container> before = cache.containers();

    // Replaced with the same seq: the same order, the new content.
    Assignment pinned = Assignment.of(CpuSet.of(1), CpuSet.EMPTY);
    cache.applyAssignments(Map.of("u1:b", pinned), Set.of());
    List<Container> after = cache.containers();
    assertEquals(List.of("u1:a", "u1:b", "u1:c"), after.stream().map(Container::cacheId).toList());
    assertEquals(pinned, after.get(1).assignment());
    assertEquals(Assignment.NONE, before.get(1).assignment(), "an earlier list is unchanged");

    // Replaced with a later seq (a re-created container): it moves to the end.
    cache.putContainer(Fixtures.container("u1", "a", "c4", 7));
    assertEquals(
        List.of("u1:b", "u1:c", "u1:a"),
        cache.containers().stream().map(Container::cacheId).toList());
    cache.removeContainer("u1:c");
    assertEquals(
        List.of("u1:b", "u1:a"), cache.containers().stream().map(Container::cacheId).toList());
  }

  @Test
  void keepsTheOrderAcrossOutOfOrderInsertionsReplacementsAndRemovals() {
    java.util.Random random = new java.util.Random(20);
    java.util.TreeMap<Long, String> expected = new java.util.TreeMap<>();
    for (int step = 0; step < 400; step++) {
      long seq = random.nextInt(60);
      String name = "c" + seq;
      switch (random.nextInt(3)) {
        case 0 -> {
          cache.putContainer(Fixtures.container("u", name, "", seq));
          expected.put(seq, "u:" + name);
        }
        case 1 -> {
          cache.removeContainer("u:" + name);
          expected.remove(seq);
        }
        default ->
            cache
                .container("u:" + name)
                .ifPresent(c -> cache.putContainer(c.withState(ContainerState.EXITED)));
      }
      assertEquals(
          List.copyOf(expected.values()),
          cache.containers().stream().map(Container::cacheId).toList(),
          "after step " + step);
    }
  }

  @Test
  void listsAndSnapshotsTakenBeforeAChangeAreUnchangedAfterIt() {
    cache.putContainer(Fixtures.container("u1", "a", "c1", 1));
    cache.putContainer(Fixtures.container("u1", "b", "c2", 2));
    cache.putPod(Fixtures.pod("sandbox-u1", "u1"));
    List<Pod> pods = cache.pods();
    List<Container> list = cache.containers();
    List<Container> listCopy = List.copyOf(list);
    CacheSnapshot snapshot = cache.snapshot();
    Map<String, Container> snapshotCopy = Map.copyOf(snapshot.containers());

    cache.applyAssignments(
        Map.of("u1:a", Assignment.of(CpuSet.of(3), CpuSet.EMPTY)), Set.of("cri"));
    cache.putContainer(Fixtures.container("u1", "c", "c3", 3));
    cache.putContainer(Fixtures.container("u1", "b", "c4", 4));
    cache.removeContainer("u1:a");
    cache.putPod(Fixtures.pod("sandbox-u2", "u2"));
    cache.removePod("sandbox-u1");

    assertEquals(List.of("sandbox-u1"), pods.stream().map(Pod::id).toList());
    assertEquals(List.of("sandbox-u2"), cache.pods().stream().map(Pod::id).toList());
    assertEquals(listCopy, list, "a list handed out earlier");
    assertEquals(snapshotCopy, snapshot.containers(), "a snapshot taken earlier");
    assertEquals(Set.of(), snapshot.containers().get("u1:a").pending());
    assertEquals(
        List.of("u1:c", "u1:b"), cache.containers().stream().map(Container::cacheId).toList());
  }

  @Test
  void listsPodsBySandboxId() {
    cache.putPod(Fixtures.pod("s2", "u2"));
    cache.putPod(Fixtures.pod("s1", "u1"));
    assertEquals(List.of("s1", "s2"), cache.pods().stream().map(Pod::id).toList());
    cache.removePod("s1");
    assertEquals(Optional.empty(), cache.pod("s1"));
    assertTrue(cache.pod("s2").isPresent());
  }

  @Test
  void keepsPolicyDataPerPolicy() {
    cache.setActivePolicy("test");
    cache.setPolicyData("test", JsonNodeFactory.instance.textNode("a"));
    cache.setPolicyData("other", JsonNodeFactory.instance.textNode("b"));
    cache.setPolicyData("other", null);
    assertEquals("a", cache.policyData("test").orElseThrow().textValue());
    assertEquals(Optional.empty(), cache.policyData("other"));
    cache.resetPolicy();
    assertEquals(Optional.empty(), cache.policyData("test"));
    assertEquals("", cache.activePolicy());
  }

  @Test
  void countsChanges() {
    long before = cache.changes();
    cache.putPod(Fixtures.pod("s1", "u1"));
    cache.removePod("nope");
    cache.setAgentConfig("x: 1");
    assertEquals(before + 2, cache.changes());
  }

  @Test
  void restoresWhatItsSnapshotRecorded() {
    CacheSnapshot snapshot = Fixtures.fullSnapshot();
    NodeCache restored = NodeCache.restore(snapshot);
    assertEquals(snapshot, restored.snapshot());
    assertEquals(0, restored.changes());
    assertEquals("u1:app", restored.containerById("c1").orElseThrow().cacheId());
    assertEquals(Optional.of("policy:\n  Active: test\n"), restored.agentConfig());
    assertEquals("test", restored.activePolicy());
    assertEquals(8, restored.nextSeq());
  }

  @Test
  void restoreNeverHandsOutASequenceNumberInUse() {
    CacheSnapshot s = Fixtures.fullSnapshot();
    CacheSnapshot stale =
        new CacheSnapshot(
            s.version(),
            s.pods(),
            s.containers(),
            1,
            s.activePolicy(),
            s.policyData(),
            s.agentConfig());
    assertEquals(8, NodeCache.restore(stale).nextSeq());
  }
}
