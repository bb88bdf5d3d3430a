package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pending marks' set: sorted, shared when equal, never stale. */
class SortedNamesTest {
  @Test
  void equalSetsMadeOneAfterTheOtherAreShared() {
    SortedNames first = SortedNames.of(Set.of("rdt", "cri"));
    SortedNames second = SortedNames.of(new HashSet<>(List.of("cri", "rdt")));
    assertSame(first, second);
    assertEquals(List.of("cri", "rdt"), List.copyOf(second));
  }

  @Test
  void aChangedSourceSetGivesItsNewContent() {
    Set<String> running = new HashSet<>(Set.of("cri"));
    SortedNames before = SortedNames.of(running);
    running.add("blockio");
    SortedNames after = SortedNames.of(running);
    assertEquals(List.of("cri"), List.copyOf(before));
    assertEquals(List.of("blockio", "cri"), List.copyOf(after));
  }

  @Test
  void containersMarkedByTheSameControllersShareTheirMarks() {
    Container a =
        Fixtures.container("pod-a", "a", "id-a", 1).withAssignment(Assignment.NONE, Set.of("cri"));
    Container b =
        Fixtures.container("pod-b", "b", "id-b", 2).withAssignment(Assignment.NONE, Set.of("cri"));
    assertSame(a.pending(), b.pending());
  }

  @Test
  void withoutTheLastNameIsEmpty() {
    SortedNames one = SortedNames.of(Set.of("cri"));
    assertTrue(one.without("cri").isEmpty());
    assertSame(one, one.without("rdt"));
    assertEquals(List.of("rdt"), List.copyOf(SortedNames.of(Set.of("cri", "rdt")).without("cri")));
  }
}
