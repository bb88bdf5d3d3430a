package io.criresmgr.policy.properties;

import io.criresmgr.cache.Resources;

/** One pipeline step of a generated scenario. */
sealed interface Step {
  /** CreateContainer of a new container with {@code resources}: the policy allocates. */
  record Create(Resources resources) implements Step {}

  /** The active container at {@code index} (modulo their count) exits: the policy releases. */
  record Release(int index) implements Step {}

  /**
   * UpdateContainerResources of the active container at {@code index} (modulo their count) to
   * {@code scale} times one CPU in its own QoS class, as an in-place resize keeps the class.
   */
  record Update(int index, int scale) implements Step {}
}
