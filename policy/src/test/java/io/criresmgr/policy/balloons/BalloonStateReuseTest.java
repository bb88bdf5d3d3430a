package io.criresmgr.policy.balloons;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.CpuSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The policy data written with the remembered {@code containers} objects ({@link
 * BalloonState.Containers}) is the data written afresh: a seeded random run of containers added,
 * re-added with other requests and removed, balloons resized, created and deleted, and every few
 * steps a write from an older list of balloons (a rolled-back decision), compared after every step;
 * the request sums {@link FrozenRequests} keeps are the sums of the requests.
 */
class BalloonStateReuseTest {
  private static final int STEPS = 2000;

  @ParameterizedTest
  @ValueSource(longs = {1, 7, 20261128})
  void reusedDataIsTheDataWrittenAfresh(long seed) {
    Random random = new Random(seed);
    BalloonState.Containers known = new BalloonState.Containers();
    List<Balloon> balloons = new ArrayList<>();
    List<Balloon> older = List.of();
    for (int step = 0; step < STEPS; step++) {
      int dice = random.nextInt(20);
      if (balloons.isEmpty() || dice == 0) {
        balloons.add(Balloon.empty("t" + random.nextInt(3), balloons.size(), CpuSet.EMPTY, false));
      } else {
        int at = random.nextInt(balloons.size());
        Balloon b = balloons.get(at);
        String id = "c" + random.nextInt(40);
        if (dice == 1) {
          balloons.remove(at);
        } else if (dice < 8) {
          balloons.set(at, b.withCpus(CpuSet.range(0, random.nextInt(8))));
        } else if (dice < 15) {
          balloons.set(at, b.with(id, 10L * random.nextInt(5) + (dice == 14 ? 1L << 40 : 0)));
        } else {
          balloons.set(at, b.without(id));
        }
      }
      List<Balloon> now = step % 7 == 6 ? older : List.copyOf(balloons);
      older = List.copyOf(balloons);
      JsonNode reused = BalloonState.write(now, "k", known);
      assertEquals(BalloonState.write(now, "k"), reused, "seed " + seed + ", step " + step);
      assertEquals(now, BalloonState.read(reused), "seed " + seed + ", step " + step);
      for (Balloon b : now) {
        long sum = b.containers().values().stream().mapToLong(Long::longValue).sum();
        assertEquals(sum, b.requestMilli(), "kept sum, seed " + seed + ", step " + step);
      }
    }
  }

  @Test
  void aBalloonWhoseContainersDidNotChangeKeepsItsObject() {
    BalloonState.Containers known = new BalloonState.Containers();
    Balloon a = Balloon.empty("t", 0, CpuSet.of(1), false).with("c0", 100);
    Balloon b = Balloon.empty("t", 1, CpuSet.of(2), false).with("c1", 100);
    JsonNode first = BalloonState.write(List.of(a, b), "k", known);
    JsonNode second =
        BalloonState.write(List.of(a.withCpus(CpuSet.of(1, 3)), b.with("c2", 5)), "k", known);
    JsonNode same = second.get("balloons").get(0).get("containers");
    assertSame(first.get("balloons").get(0).get("containers"), same);
    assertTrue(second.get("balloons").get(1).get("containers").has("c2"));
    assertEquals(1, first.get("balloons").get(1).get("containers").size());
  }
}
