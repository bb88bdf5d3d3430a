package io.criresmgr.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QosClassTest {
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        // cgroupfs driver
        "/kubepods/burstable/pod123                                             | BURSTABLE",
        "/kubepods/besteffort/pod123                                            | BEST_EFFORT",
        "/kubepods/pod1                                                         | GUARANTEED",
        "/kubepods/pod1-2-3                                                     | GUARANTEED",
        "kubepods/burstable/pod123                                              | BURSTABLE",
        // systemd driver
        "kubepods-besteffort-pod1.slice                                         | BEST_EFFORT",
        "kubepods-burstable-pod1_2.slice                                        | BURSTABLE",
        "kubepods-pod1_2.slice                                                  | GUARANTEED",
        "kubepods.slice/kubepods-burstable.slice/kubepods-burstable-podX.slice  | BURSTABLE",
        "kubepods.slice/kubepods-podX.slice                                     | GUARANTEED",
        // below a kubelet --cgroup-root, whose name must not be mistaken for a pod
        "/podman/kubepods/burstable/pod1                                        | BURSTABLE",
        "/podman/kubepods/pod1                                                  | GUARANTEED",
        "/kubelet.slice/kubelet-kubepods.slice/kubelet-kubepods-besteffort.slice/kubelet-kubepods-besteffort-pod9.slice | BEST_EFFORT",
        // nothing to go by
        "''                                                                     | BEST_EFFORT",
        "/                                                                      | BEST_EFFORT",
        "/podman/pod1                                                           | BEST_EFFORT",
        "/kubepods                                                              | BEST_EFFORT",
      })
  void derivesTheClassFromTheCgroupParent(String cgroupParent, QosClass expected) {
    assertEquals(expected, QosClass.fromCgroupParent(cgroupParent));
  }

  @Test
  void parsesTheKubernetesSpelling() {
    assertEquals(QosClass.BEST_EFFORT, QosClass.parse("BestEffort"));
    assertEquals(QosClass.GUARANTEED, QosClass.parse("guaranteed"));
    assertEquals("Burstable", QosClass.BURSTABLE.toString());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> QosClass.parse("Best-Effort"));
    assertEquals(
        "invalid QoS class \"Best-Effort\", expected Guaranteed, Burstable or BestEffort",
        e.getMessage());
  }
}
