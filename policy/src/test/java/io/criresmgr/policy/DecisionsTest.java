package io.criresmgr.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.cache.Assignment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Decisions keep their updates in order and refuse two updates of one container. */
class DecisionsTest {
  private static List<Decisions.Update> updates(int count) {
    List<Decisions.Update> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      out.add(new Decisions.Update("uid-pod" + i + ":c" + (i % 3), Assignment.NONE));
    }
    return out;
  }

  @Test
  void distinctUpdatesOfAnyCountAreKeptInOrder() {
    for (int count : new int[] {0, 1, 2, 3, 7, 8, 9, 500}) {
      List<Decisions.Update> updates = updates(count);
      assertEquals(updates, Decisions.of(updates).updates());
    }
  }

  @Test
  void twoUpdatesOfOneContainerAreRefusedWhereverTheyAre() {
    for (int count : new int[] {2, 3, 9, 500}) {
      for (int[] pair : new int[][] {{0, 1}, {0, count - 1}, {count / 2, count - 1}}) {
        if (pair[0] == pair[1]) {
          continue;
        }
        List<Decisions.Update> updates = updates(count);
        updates.set(pair[1], new Decisions.Update(updates.get(pair[0]).cacheId(), Assignment.NONE));
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> Decisions.of(updates));
        assertEquals(
            "two decisions for container " + updates.get(pair[0]).cacheId(), e.getMessage());
      }
    }
  }
}
