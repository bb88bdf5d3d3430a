package io.criresmgr.controllers;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.cache.Pod;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What controllers may read of the node besides the container a hook is about: its pod, every
 * active container (to re-apply a changed configuration) and the policy's CPU classes. Backed by
 * the cache; read it only on the pipeline thread (in hooks and in {@link Controller#start}).
 */
public interface NodeView {
  /** A view of an empty node, for tests and tools without a cache. */
  NodeView EMPTY =
      new NodeView() {
        @Override
        public Optional<Pod> pod(String podId) {
          return Optional.empty();
        }

        @Override
        public List<Container> activeContainers() {
          return List.of();
        }

        @Override
        public Map<String, CpuSet> cpuClasses() {
          return Map.of();
        }
      };

  /** The pod with sandbox id {@code podId}, if cached. */
  Optional<Pod> pod(String podId);

  /** Containers that are created or running (or being created), in creation order. */
  List<Container> activeContainers();

  /** The active policy's CPU classes: class name to the CPUs it covers; empty if it has none. */
  Map<String, CpuSet> cpuClasses();
}
