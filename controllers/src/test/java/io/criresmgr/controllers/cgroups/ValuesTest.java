package io.criresmgr.controllers.cgroups;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** CpusetList, CpuShares and CpuQuota. */
class ValuesTest {
  @Test
  void cpusetListCanonicalForm() {
    assertEquals("0-3,6,8-9", CpusetList.parse("9,8, 6,0-2,3").toString());
    assertEquals("5", CpusetList.parse("5").toString());
    assertEquals("0-1", CpusetList.parse("1,0").toString());
  }

  @Test
  void cpusetListErrors() {
    assertEquals(
        "invalid cpuset list \"0,3-1\": bad item \"3-1\", expected N or N-M with 0 <= N <= M,"
            + " separated by commas",
        assertThrows(CgroupException.class, () -> CpusetList.parse("0,3-1")).getMessage());
    assertEquals(
        "invalid cpuset list \"\": bad item \"\", expected N or N-M with 0 <= N <= M,"
            + " separated by commas",
        assertThrows(CgroupException.class, () -> CpusetList.parse("")).getMessage());
  }

  @Test
  void sharesToWeightLikeKubernetes() {
    assertEquals(1, new CpuShares(2).weight());
    assertEquals(39, new CpuShares(1024).weight());
    assertEquals(10_000, new CpuShares(262_144).weight());
    // the newer crun/runc conversion keeps the defaults aligned: 1024 shares -> weight 100
    assertEquals(100, new CpuShares(1024).quadraticWeight());
    assertEquals(1, new CpuShares(2).quadraticWeight());
    assertEquals(10_000, new CpuShares(262_144).quadraticWeight());
  }

  @Test
  void sharesRange() {
    assertEquals(
        "invalid cpu shares -5: expected 2 to 262144",
        assertThrows(CgroupException.class, () -> new CpuShares(-5)).getMessage());
    assertEquals(
        "invalid cpu shares 262145: expected 2 to 262144",
        assertThrows(CgroupException.class, () -> new CpuShares(262_145)).getMessage());
  }

  @Test
  void quota() {
    assertEquals("max 100000", CpuQuota.unlimited().cpuMax());
    assertEquals("250000 100000", new CpuQuota(250_000, 100_000).cpuMax());
    assertEquals(
        "invalid cpu quota 0us: expected -1 (unlimited) or at least 1000",
        assertThrows(CgroupException.class, () -> new CpuQuota(0, 100_000)).getMessage());
    assertEquals(
        "invalid cpu period 999us: expected 1000 to 1000000 microseconds",
        assertThrows(CgroupException.class, () -> new CpuQuota(-1, 999)).getMessage());
  }
}
