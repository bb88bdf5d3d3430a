package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A copy with another assignment or pending marks is the container the builder makes with those
 * fields: equal, same hash and text, every other field kept.
 */
class ContainerCopyTest {
  private static final Assignment TWO = Assignment.of(CpuSet.of(2, 3), CpuSet.of(0));

  private final Container base = Fixtures.container("pod-a", "a", "id-a", 7);

  @Test
  void aMarkedCopyIsWhatTheBuilderMakes() {
    Container marked = base.withAssignment(TWO, Set.of("cri"));
    Container built = base.toBuilder().assignment(TWO).pending(Set.of("cri")).build();
    assertEquals(built, marked);
    assertEquals(built.hashCode(), marked.hashCode());
    assertEquals(built.toString(), marked.toString());
    assertEquals(base.labels(), marked.labels());
    assertEquals(7, marked.seq());
    assertEquals(Set.of("cri"), marked.pending());
  }

  @Test
  void clearingTheMarkGivesTheUnmarkedContainer() {
    Container cleared = base.withAssignment(TWO, Set.of("cri")).withoutPending("cri");
    assertEquals(base.toBuilder().assignment(TWO).build(), cleared);
    assertTrue(cleared.pending().isEmpty());
    assertSame(cleared, cleared.withoutPending("cri"));
  }

  @Test
  void theTextNamesEveryFieldInOrderAsARecordDoes() {
    String text = base.toString();
    assertTrue(text.startsWith("Container[cacheId=pod-a:a, id=id-a, podId=sandbox-pod-a,"), text);
    assertTrue(
        text.endsWith(", pending=[], seq=7, adjustment=" + Adjustment.NONE + ", topologyHints=[]]"),
        text);
  }

  @Test
  void onlyAssignmentAndMarksCountAsTheSameButTheAssignment() {
    assertTrue(base.sameButAssignment(base.withAssignment(TWO, Set.of("cri"))));
    assertTrue(base.sameButAssignment(base.toBuilder().assignment(TWO).build()));
    assertFalse(base.sameButAssignment(base.withState(ContainerState.EXITED)));
    assertNotEquals(base, base.withAssignment(TWO, Set.of()));
  }
}
