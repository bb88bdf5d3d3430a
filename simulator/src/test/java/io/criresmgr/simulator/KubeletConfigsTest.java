package io.criresmgr.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.cache.QosClass;
import org.junit.jupiter.api.Test;

class KubeletConfigsTest {
  @Test
  void computesLinuxResourcesAsKubeletDoes() {
    LinuxContainerResources r =
        KubeletConfigs.resources(new PodSpec.Requirements(980, 2000, 100, 200_000_000));
    assertEquals(1003, r.getCpuShares());
    assertEquals(100_000, r.getCpuPeriod());
    assertEquals(200_000, r.getCpuQuota());
    assertEquals(200_000_000, r.getMemoryLimitInBytes());
    LinuxContainerResources none = KubeletConfigs.resources(new PodSpec.Requirements(0, 0, 0, 0));
    assertEquals(2, none.getCpuShares());
    assertEquals(0, none.getCpuQuota());
    assertEquals(0, none.getMemoryLimitInBytes());
    assertEquals(1000, KubeletConfigs.milliCpuToQuota(5));
    assertEquals(2, KubeletConfigs.milliCpuToShares(1));
  }

  @Test
  void cgroupParentEncodesTheQosClass() {
    assertEquals("/kubepods/pod1", KubeletConfigs.cgroupParent(QosClass.GUARANTEED, "1"));
    assertEquals("/kubepods/burstable/pod1", KubeletConfigs.cgroupParent(QosClass.BURSTABLE, "1"));
    assertEquals(
        "/kubepods/besteffort/pod1", KubeletConfigs.cgroupParent(QosClass.BEST_EFFORT, "1"));
    for (QosClass q : QosClass.values()) {
      assertEquals(q, QosClass.fromCgroupParent(KubeletConfigs.cgroupParent(q, "abc")));
    }
  }
}
