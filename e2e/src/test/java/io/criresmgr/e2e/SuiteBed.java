package io.criresmgr.e2e;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What the shared e2e suites run against: this host with containerd 1.6 and cgroup v1 ({@link
 * ResmgrBed}) or the VM bed with containerd 1.7 and pure cgroup v2 ({@link VmSuiteBed}). One per
 * test class; a class's extension hands it to its {@code @BeforeAll} and test methods as a
 * parameter and stops the daemon (and, on this host, the bed) after the class.
 */
interface SuiteBed {
  /** The runtime's CRI socket, on this host. */
  Path criSocket();

  /** Starts {@code bin/cri-resmgr} in front of the runtime with {@code configYaml}. */
  ResmgrDaemon startDaemon(String configYaml) throws IOException, InterruptedException;

  /**
   * Stops the daemon and starts it again with the same state, so that it restores its cache: what a
   * daemon restart on a node looks like.
   */
  ResmgrDaemon restartDaemon(String configYaml) throws IOException, InterruptedException;

  /** The started daemon. */
  ResmgrDaemon daemon();

  /** The node the containers run on, for placements and cgroup parents. */
  E2eNode node();

  /** The node's cgroup version. */
  CgroupVersion cgroupVersion();

  /** The CPU and memory values in the cgroup of container {@code id} below {@code parent}. */
  CgroupValues cgroupValues(String parent, String id) throws IOException;

  /**
   * Writes {@code cpus} and {@code memoryLimit} into the cgroup of container {@code id} below
   * {@code parent}, as an operator (or another agent) would by hand.
   */
  void writeByHand(String parent, String id, String cpus, long memoryLimit) throws IOException;

  /** The node's online CPUs as its kernel lists them, e.g. {@code 0-1}. */
  String onlineCpus() throws IOException;

  /** A directory on the node for the logs of pod {@code name}, created. */
  Path logDir(String name) throws IOException;

  /** The content of {@code file} on the node, empty if it does not exist. */
  String readIfExists(Path file) throws IOException;

  /** Skips (or fails, where e2e is required) unless exactly CPUs 0-1 are online on the node. */
  default void requireCpus01() throws IOException {
    String online = onlineCpus();
    if (!online.equals("0-1")) {
      E2eRequirement.unavailable("this test expects CPUs 0-1 online, not " + online);
    }
  }
}
