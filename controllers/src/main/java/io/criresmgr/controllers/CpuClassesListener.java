package io.criresmgr.controllers;

import io.criresmgr.cache.CpuSet;
import java.util.Map;

/**
 * An optional hook of a {@link Controller}: a controller that implements it is told when the active
 * policy's CPU classes change. Like every hook it runs on the pipeline thread; a failure is logged
 * whatever the controller's mode, since no request waits for it.
 */
public interface CpuClassesListener {
  /** The active policy's CPU classes changed (class name to CPUs); see {@link NodeView}. */
  void cpuClassesChanged(Map<String, CpuSet> classes);
}
