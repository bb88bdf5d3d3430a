package io.criresmgr.controllers.memoryqos;

import java.util.Objects;

/**
 * A memory QoS class: containers in it may keep only {@code 1 - swapLimitRatio} of their memory
 * limit in RAM before the kernel starts swapping their memory out.
 *
 * @param name the value of the {@code class.memory-qos.nri.io} annotation that selects the class
 * @param swapLimitRatio from 0.0 to 1.0; above 0 the class sets {@code memory.high} and {@code
 *     memory.swap.max}, at 0 it sets nothing. A {@code float}, as in the original plugin, so that
 *     {@link MemoryQos#memoryHigh} matches it byte for byte.
 */
public record MemoryQosClass(String name, float swapLimitRatio) {
  /** Checks that the name is not empty and the ratio is in 0.0..1.0. */
  public MemoryQosClass {
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("class name must not be empty");
    }
    if (!(swapLimitRatio >= 0.0f && swapLimitRatio <= 1.0f)) {
      throw new IllegalArgumentException(
          "class " + name + ": swaplimitratio " + swapLimitRatio + " is not in 0.0..1.0");
    }
  }
}
