package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CpuSetTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "0-3,8,10-11 | 0-3,8,10-11",
        "3,2,1,0     | 0-3",
        "' 1 , 2 '   | 1-2",
        "5-5         | 5",
        "0-1,1-2     | 0-2",
        "7,9         | 7,9",
        "''          | ''",
        "'  '        | ''",
        "1048576     | 1048576",
      })
  void parsesAndPrintsTheKernelListFormat(String text, String printed) {
    CpuSet set = CpuSet.parse(text);
    assertEquals(printed, set.toString());
    assertEquals(set, CpuSet.parse(set.toString()));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "a        | '\"a\" is not a number or a range like 0-3'",
        "1,,2     | '\"\" is not a number or a range like 0-3'",
        "3-1      | range 3-1 ends before it starts",
        "-1       | id -1 is out of range 0-1048576",
        "1-x      | '\"1-x\" is not a number or a range like 0-3'",
        "1048577  | id 1048577 is out of range 0-1048576",
      })
  void rejectsBadListsNamingTheEntry(String text, String why) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CpuSet.parse(text));
    assertEquals(
        "invalid CPU list \"" + text + "\": " + why + " (expected a list such as 0-3,8)",
        e.getMessage());
  }

  @Test
  void buildsFromIdsAndRanges() {
    assertEquals("0-2,5", CpuSet.of(5, 0, 1, 2).toString());
    assertEquals("1,4", CpuSet.of(List.of(4, 1)).toString());
    assertEquals("4-7", CpuSet.range(4, 7).toString());
    assertTrue(CpuSet.range(7, 4).isEmpty());
    assertEquals(CpuSet.EMPTY, CpuSet.of());
    assertThrows(IllegalArgumentException.class, () -> CpuSet.of(-1));
  }

  @Test
  void setOperations() {
    CpuSet a = CpuSet.parse("0-5");
    CpuSet b = CpuSet.parse("4-7");
    assertEquals("0-7", a.union(b).toString());
    assertEquals("4-5", a.intersection(b).toString());
    assertEquals("0-3", a.difference(b).toString());
    assertEquals("6-7", b.difference(a).toString());
    assertTrue(a.intersects(b));
    assertFalse(a.intersects(CpuSet.of(6)));
    assertTrue(a.containsAll(CpuSet.of(1, 5)));
    assertFalse(a.containsAll(b));
    assertTrue(a.containsAll(CpuSet.EMPTY));
    assertEquals("0-5", a.toString(), "operations leave the operands alone");
  }

  @Test
  void queries() {
    CpuSet set = CpuSet.parse("1,3-4,9");
    assertEquals(4, set.size());
    assertTrue(set.contains(3));
    assertFalse(set.contains(2));
    assertFalse(set.contains(-1));
    assertEquals("1,3-4", set.lowest(3).toString());
    assertEquals(set, set.lowest(10));
    assertTrue(set.lowest(-1).isEmpty());
    assertEquals(List.of(1, 3, 4, 9), set.stream().boxed().toList());
    assertTrue(CpuSet.EMPTY.isEmpty());
    assertEquals(0, CpuSet.EMPTY.size());
  }

  @Test
  void nextFindsTheLowestIdFromAPosition() {
    CpuSet set = CpuSet.parse("1,3-4,9");
    assertEquals(1, set.next(-5));
    assertEquals(3, set.next(2));
    assertEquals(4, set.next(4));
    assertEquals(9, set.next(5));
    assertEquals(-1, set.next(10));
    assertEquals(-1, CpuSet.EMPTY.next(0));
  }

  @Test
  void equalSetsHaveEqualHashes() {
    assertEquals(CpuSet.parse("0-3").hashCode(), CpuSet.of(3, 2, 1, 0).hashCode());
    assertFalse(CpuSet.parse("0-3").equals(CpuSet.parse("0-4")));
  }
}
