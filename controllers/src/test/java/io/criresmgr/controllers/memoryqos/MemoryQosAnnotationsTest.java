package io.criresmgr.controllers.memoryqos;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.criresmgr.controllers.memoryqos.MemoryQosAnnotations.Setting;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MemoryQosAnnotationsTest {
  @Test
  void containerLevelWinsAndOtherKeysAreIgnored() {
    MemoryQosAnnotations a =
        MemoryQosAnnotations.of(
            Map.of(
                "class.memory-qos.nri.io", "silver",
                "class.memory-qos.nri.io/c1", "bronze",
                "class.memory-qos.nri.io/xc1", "gold",
                "class.memory-qos.nri.io/c2", "gold",
                "memory.high.memory-qos.nri.io", "max",
                "class.memtierd.nri.io", "swap-idle-data",
                "memory-qos.nri.io", "x"),
            "c1");
    assertEquals(
        new TreeMap<>(
            Map.of(
                "class", new Setting("class.memory-qos.nri.io/c1", "bronze"),
                "memory.high", new Setting("memory.high.memory-qos.nri.io", "max"))),
        a.settings());
    assertEquals(List.of(), a.warnings());
  }

  @Test
  void anEmptyContainerValueStillOverridesThePodValue() {
    MemoryQosAnnotations a =
        MemoryQosAnnotations.of(
            Map.of("class.memory-qos.nri.io", "silver", "class.memory-qos.nri.io/c1", ""), "c1");
    assertEquals(Map.of("class", new Setting("class.memory-qos.nri.io/c1", "")), a.settings());
  }
}
