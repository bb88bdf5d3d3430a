/**
 * Scenario tests and the placement simulator: a YAML scenario format (topology, configuration,
 * steps creating and deleting pods, expectations on each container's CPUs, memory nodes, NUMA
 * nodes, packages, dies, cores and threads), run through the real daemon in front of the simulated
 * runtime on a generated fake sysfs, and {@code cri-resmgr simulate}.
 *
 * <p>Entry points: {@link io.criresmgr.simulator.Scenario} (parsing, docs/scenarios.md), {@link
 * io.criresmgr.simulator.ScenarioRunner} (running), {@link io.criresmgr.simulator.SimulateCommand}
 * (the command line, docs/simulator.md). A runner runs one scenario at a time on the calling
 * thread; the parsed scenario is immutable.
 */
@NullMarked
package io.criresmgr.simulator;

import org.jspecify.annotations.NullMarked;
