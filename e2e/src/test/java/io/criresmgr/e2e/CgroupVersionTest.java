package io.criresmgr.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CgroupVersionTest {
  @Test
  void v1ShowsTheSharesThemselves() {
    assertEquals("512", CgroupVersion.V1.cpu(512));
    assertEquals("2", CgroupVersion.V1.cpu(2));
  }

  @Test
  void v2ShowsRuncsWeightForTheShares() {
    assertEquals("1", CgroupVersion.V2.cpu(2));
    assertEquals("10", CgroupVersion.V2.cpu(256));
    assertEquals("20", CgroupVersion.V2.cpu(512));
    assertEquals("39", CgroupVersion.V2.cpu(1024));
    assertEquals("10000", CgroupVersion.V2.cpu(262_144));
  }

  @Test
  void valuesOfAVersionSpellTheLimitInBytes() {
    assertEquals(
        new CgroupValues("0-1", "134217728", "39"),
        CgroupValues.of(CgroupVersion.V2, "0-1", 128L << 20, 1024));
  }
}
