package io.criresmgr.controllers.memtierd;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.cgroups.CgroupLayout;
import io.criresmgr.controllers.cgroups.ContainerCgroups;
import io.criresmgr.controllers.cgroups.UnifiedMemoryHost;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a configured memtierd controller runs with.
 *
 * @param config the parsed {@code memtierd} section
 * @param layout the host's cgroup layout, which has a v2 hierarchy
 * @param processes the memtierd processes of {@code config}'s binary and run dir
 */
record MemtierdSetup(MemtierdConfig config, CgroupLayout layout, MemtierdProcesses processes) {
  /** Checks for nulls and that the layout has a v2 hierarchy. */
  MemtierdSetup {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(processes, "processes");
    if (layout.unifiedRoot().isEmpty()) {
      throw new IllegalArgumentException("layout without cgroup v2: " + layout);
    }
  }

  /**
   * The parsed {@code memtierd} section of {@code context}; empty if it has none.
   *
   * @throws ControllerException if the section is invalid
   */
  static Optional<MemtierdConfig> configOf(ControllerContext context) {
    return context.section(MemtierdConfig.SECTION).map(MemtierdConfig::parse);
  }

  /**
   * A setup for {@code config} on {@code context}'s host. It keeps {@code previous}'s layout, and
   * its processes if the binary and run dir are the same.
   *
   * @throws ControllerException if the host has no cgroup v2 hierarchy or a class runs memtierd but
   *     the binary is not found
   */
  static MemtierdSetup of(
      MemtierdConfig config, ControllerContext context, @Nullable MemtierdSetup previous) {
    checkBinary(config);
    if (previous == null) {
      CgroupLayout layout = unifiedLayout(context.cgroupMountOrDefault());
      return new MemtierdSetup(config, layout, MemtierdProcesses.of(config));
    }
    boolean sameProcesses =
        previous.config().binary().equals(config.binary())
            && previous.config().runDir().equals(config.runDir());
    MemtierdProcesses processes =
        sameProcesses ? previous.processes() : MemtierdProcesses.of(config);
    return new MemtierdSetup(config, previous.layout(), processes);
  }

  /** Whether {@code next} uses other processes (binary or run dir changed). */
  boolean otherProcesses(MemtierdSetup next) {
    return next.processes() != processes;
  }

  /** The output directory name of {@code c}, a container of {@code pod}. */
  static MemtierdContainer containerOf(Pod pod, Container c) {
    try {
      return new MemtierdContainer(pod.namespace(), pod.name(), c.name());
    } catch (IllegalArgumentException e) {
      throw new ControllerException("cannot run memtierd for " + c.cacheId() + ": " + e, e);
    }
  }

  /**
   * The absolute cgroup v2 directory of {@code c}, a container of {@code pod}.
   *
   * @throws io.criresmgr.controllers.cgroups.CgroupException naming the directories tried
   */
  String cgroupDir(Pod pod, Container c) {
    return ContainerCgroups.find(layout, pod.cgroupParent(), c.id())
        .unifiedDir()
        .orElseThrow()
        .toString();
  }

  /** memtierd reads and sets v2 memory files; its unified claims would break runc elsewhere. */
  private static CgroupLayout unifiedLayout(Path mount) {
    return UnifiedMemoryHost.check(mount, "memtierd");
  }

  /** A missing binary is reported once here rather than for every container. */
  private static void checkBinary(MemtierdConfig config) {
    if (config.classes().stream().noneMatch(MemtierdClass::runsMemtierd)) {
      return;
    }
    String binary = config.binary();
    if (binary.contains("/")) {
      if (!Files.isRegularFile(Path.of(binary)) || !Files.isExecutable(Path.of(binary))) {
        throw new ControllerException("memtierd.binary: " + binary + " is not an executable file");
      }
    } else if (!inPath(binary)) {
      throw new ControllerException("memtierd.binary: " + binary + " not found in PATH");
    }
  }

  private static boolean inPath(String name) {
    String path = Objects.requireNonNullElse(System.getenv("PATH"), "");
    for (String dir : path.split(File.pathSeparator, -1)) {
      Path candidate = Path.of(dir.isEmpty() ? "." : dir).resolve(name);
      if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
        return true;
      }
    }
    return false;
  }
}
