package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.cache.CpuSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The ledger's indexes (the grants using each pool's own shared CPUs, the grants with exclusive
 * CPUs) stay in step with its grants across adds, replacements, removals, copies and restores: they
 * hold what a scan of every grant finds.
 */
class LedgerIndexTest {
  private static final PoolTree TREE = Trees.memoryOnly(100, 100, 100);
  private static final List<CpuKind> KINDS =
      List.of(CpuKind.NORMAL, CpuKind.NORMAL, CpuKind.RESERVED, CpuKind.PRESERVE);

  private static Grant grant(Random random, String id) {
    CpuKind kind = KINDS.get(random.nextInt(KINDS.size()));
    CpuSet exclusive =
        kind == CpuKind.NORMAL && random.nextBoolean()
            ? CpuSet.of(random.nextInt(64))
            : CpuSet.EMPTY;
    long milli = random.nextBoolean() ? 0 : 1 + random.nextInt(500);
    return new Grant(
        id,
        kind,
        random.nextInt(TREE.size()),
        exclusive,
        milli,
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
  void indexesHoldWhatAScanOfTheGrantsFindsThroughChangesCopiesAndRestores() {
    Random random = new Random(29);
    Ledger ledger = new Ledger(TREE);
    List<Ledger> frozen = new ArrayList<>();
    List<Map<String, Object>> frozenIndexes = new ArrayList<>();
    for (int step = 0; step < 3000; step++) {
      String id = "c" + random.nextInt(200);
      if (random.nextInt(3) == 0) {
        ledger.remove(id);
      } else {
        ledger.add(grant(random, id)); // a replacement when the id has a grant
      }
      assertIndexesMatchScan(ledger);
      if (step % 100 == 99) {
        frozen.add(ledger.freeze());
        frozenIndexes.add(indexes(ledger));
        ledger = ledger.copy();
      }
    }
    for (int i = 0; i < frozen.size(); i++) {
      assertEquals(frozenIndexes.get(i), indexes(frozen.get(i)), "frozen ledger " + i);
      assertIndexesMatchScan(frozen.get(i));
    }
    Ledger restored = new Ledger(TREE);
    ledger.grants().forEach(restored::add);
    assertEquals(indexes(ledger), indexes(restored));
    assertIndexesMatchScan(restored);
  }

  private static void assertIndexesMatchScan(Ledger ledger) {
    Map<String, Object> scanned = new HashMap<>();
    for (int p = 0; p < TREE.size(); p++) {
      Map<String, Grant> shared = new HashMap<>();
      for (Grant g : ledger.grants()) {
        if (g.usesSharedCpus() && g.pool() == p) {
          shared.put(g.cacheId(), g);
        }
      }
      scanned.put("shared users of " + p, shared);
    }
    Map<String, Grant> exclusive = new HashMap<>();
    for (Grant g : ledger.grants()) {
      if (!g.exclusive().isEmpty()) {
        exclusive.put(g.cacheId(), g);
      }
    }
    scanned.put("exclusive", exclusive);
    assertEquals(scanned, indexes(ledger));
    assertEquals(ledger.grants().size(), ledger.size());
  }

  private static Map<String, Object> indexes(Ledger ledger) {
    Map<String, Object> out = new HashMap<>();
    for (int p = 0; p < TREE.size(); p++) {
      Map<String, Grant> shared = new HashMap<>();
      ledger.forEachSharedUser(p, g -> shared.put(g.cacheId(), g));
      out.put("shared users of " + p, shared);
    }
    Map<String, Grant> exclusive = new HashMap<>();
    ledger.forEachExclusive(g -> exclusive.put(g.cacheId(), g));
    out.put("exclusive", exclusive);
    return out;
  }
}
