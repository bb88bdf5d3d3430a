package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.TopologyHint;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Device hints are found off the pipeline thread and never hold a creation up for long: a lookup
 * stuck in the kernel (a hung network file system) or failing gives no hints.
 */
class DeviceHintLookupTest {
  private static final TopologyHint HINT =
      new TopologyHint("/dev/vfio/7", CpuSet.range(12, 15), CpuSet.of(3));
  private static final ContainerConfig WITH_MOUNT =
      ContainerConfig.newBuilder()
          .setMetadata(ContainerMetadata.newBuilder().setName("c0"))
          .addMounts(Mount.newBuilder().setContainerPath("/data").setHostPath("/mnt/nfs/data"))
          .build();

  private static List<TopologyHint> get(DeviceHintLookup lookup, ContainerConfig config)
      throws Exception {
    return lookup.of(config).get(10, TimeUnit.SECONDS);
  }

  @Test
  void aLookupGivesItsHints() throws Exception {
    DeviceHintLookup lookup = DeviceHintLookup.of(config -> List.of(HINT), Duration.ofSeconds(5));
    assertEquals(List.of(HINT), get(lookup, WITH_MOUNT));
  }

  @Test
  void aStuckLookupGivesNoHintsOnceTheLimitPasses() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    DeviceHintLookup lookup =
        DeviceHintLookup.of(
            config -> {
              try {
                never.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              return List.of(HINT);
            },
            Duration.ofMillis(200));
    assertEquals(List.of(), get(lookup, WITH_MOUNT));
    // The stuck thread does not stop the next lookups either.
    assertEquals(List.of(), get(lookup, WITH_MOUNT));
    never.countDown();
  }

  @Test
  void aFailingLookupGivesNoHints() throws Exception {
    DeviceHintLookup lookup =
        DeviceHintLookup.of(
            config -> {
              throw new IllegalStateException("sysfs is gone");
            },
            Duration.ofSeconds(5));
    assertEquals(List.of(), get(lookup, WITH_MOUNT));
  }

  @Test
  void noDevicesNoMountsOrNoLookupAskNothing() throws Exception {
    DeviceHintLookup lookup =
        DeviceHintLookup.of(
            config -> {
              throw new AssertionError("looked up");
            },
            Duration.ofSeconds(5));
    assertEquals(List.of(), get(lookup, ContainerConfig.getDefaultInstance()));
    assertEquals(List.of(), get(DeviceHintLookup.none(), WITH_MOUNT));
  }
}
