package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.criresmgr.cache.CpuSet;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Values by grant shape, in the arrays for the first few shapes and in the map beyond them. */
class GrantShapesTest {
  /** A grant of {@code id} whose shape here is its pool alone. */
  private static Grant grant(String id, int pool) {
    return new Grant(
        id,
        CpuKind.NORMAL,
        pool,
        CpuSet.EMPTY,
        100,
        0,
        Set.of(),
        CpuSet.EMPTY,
        Memory.NONE,
        Duration.ZERO,
        0,
        false,
        false);
  }

  @Test
  void eachShapeKeepsItsValueWhereverItIsHeld() {
    GrantShapes<Integer, String> shapes =
        new GrantShapes<>((a, b) -> a.pool() == b.pool(), Grant::pool);
    for (int pool = 0; pool < 20; pool++) { // 8 in the arrays, 12 in the map
      assertNull(shapes.get(grant("first-" + pool, pool)));
      shapes.put(grant("first-" + pool, pool), "pool " + pool);
    }
    for (int pool = 19; pool >= 0; pool--) { // other grants of the same shapes, in another order
      assertEquals("pool " + pool, shapes.get(grant("other-" + pool, pool)));
      assertEquals("pool " + pool, shapes.get(grant("again-" + pool, pool)), "the last one met");
    }
    assertNull(shapes.get(grant("new", 20)));
  }
}
