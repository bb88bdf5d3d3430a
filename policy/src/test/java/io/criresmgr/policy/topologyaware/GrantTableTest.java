package io.criresmgr.policy.topologyaware;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.cache.CpuSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class GrantTableTest {
  private static Grant grant(String id, long milli) {
    return new Grant(
        id,
        CpuKind.NORMAL,
        0,
        CpuSet.EMPTY,
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
  void keepsInsertionOrderLikeALinkedHashMapAndOlderTablesUnchanged() throws Exception {
    Random random = new Random(20);
    GrantTable table = GrantTable.EMPTY;
    Map<String, Grant> expected = new LinkedHashMap<>();
    List<GrantTable> tables = new ArrayList<>();
    List<Map<String, Grant>> states = new ArrayList<>();
    for (int step = 0; step < 3000; step++) {
      String id = "c" + random.nextInt(300);
      if (random.nextInt(3) == 0) {
        table = table.remove(id);
        expected.remove(id);
      } else {
        Grant g = grant(id, step);
        table = table.put(g, IntNode.valueOf(step));
        expected.put(id, g); // a replaced grant keeps its place, as in the table
      }
      if (step % 100 == 0) {
        tables.add(table);
        states.add(new LinkedHashMap<>(expected));
      }
      assertEquals(expected.size(), table.size());
      assertEquals(expected.get(id), table.get(id));
    }
    assertEquals(List.copyOf(expected.values()), List.copyOf(table.grants()));
    for (int i = 0; i < tables.size(); i++) {
      assertEquals(List.copyOf(states.get(i).values()), List.copyOf(tables.get(i).grants()));
    }
    ObjectNode copy = JsonNodeFactory.instance.objectNode();
    expected.values().forEach(g -> copy.put(g.cacheId(), (int) g.fractionMilli()));
    ObjectNode view = new ObjectNode(JsonNodeFactory.instance, table.json());
    assertEquals(copy, view);
    ObjectMapper mapper = new ObjectMapper();
    assertEquals(mapper.writeValueAsString(copy), mapper.writeValueAsString(view));
    JsonNode first = view.get(expected.keySet().iterator().next());
    assertEquals(copy.get(expected.keySet().iterator().next()), first);
    assertNull(view.get("absent"));
  }
}
