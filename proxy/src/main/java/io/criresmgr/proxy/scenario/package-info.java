/**
 * Scenario tests and the placement simulator: a YAML scenario format (topology, configuration,
 * steps creating and deleting pods, expectations on each container's CPUs, memory nodes, NUMA
 * nodes, packages, dies, cores and threads), run through the real daemon in front of the simulated
 * runtime on a generated fake sysfs, and {@code cri-resmgr simulate}.
 *
 * <p>Entry points: {@link io.criresmgr.proxy.scenario.Scenario} (parsing, docs/scenarios.md),
 * {@link io.criresmgr.proxy.scenario.ScenarioRunner} (running), {@link
 * io.criresmgr.proxy.scenario.SimulateCommand} (the command line, docs/simulator.md). A runner runs
 * one scenario at a time on the calling thread; the parsed scenario is immutable.
 */
@NullMarked
package io.criresmgr.proxy.scenario;

import org.jspecify.annotations.NullMarked;
