package io.criresmgr.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What controllers get when they start or are reconfigured.
 *
 * @param hostRoot prefix of the host's {@code /sys} ({@code --host-root}); empty means {@code /}
 * @param cgroupMount parent of the cgroup controller mounts ({@code --cgroup-mount})
 * @param sections configuration sections by name (e.g. {@code rdt}, {@code blockio}), validated by
 *     by their {@link ControllerSection} but unparsed
 * @param node the node as the cache knows it
 * @param stateDir the daemon's state directory ({@code --relay-dir}), where a controller may note
 *     what it leaves running across restarts; empty path: none
 */
public record ControllerContext(
    Path hostRoot, Path cgroupMount, Map<String, JsonNode> sections, NodeView node, Path stateDir) {
  /** Checks for nulls and copies the map. */
  public ControllerContext {
    Objects.requireNonNull(hostRoot, "hostRoot");
    Objects.requireNonNull(cgroupMount, "cgroupMount");
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(stateDir, "stateDir");
    sections = Map.copyOf(sections);
  }

  /** A context without a state directory. */
  public ControllerContext(
      Path hostRoot, Path cgroupMount, Map<String, JsonNode> sections, NodeView node) {
    this(hostRoot, cgroupMount, sections, node, Path.of(""));
  }

  /** A context without a node view (an empty node) and without a state directory. */
  public ControllerContext(Path hostRoot, Path cgroupMount, Map<String, JsonNode> sections) {
    this(hostRoot, cgroupMount, sections, NodeView.EMPTY);
  }

  /** The state directory, if the daemon has one. */
  public java.util.Optional<Path> stateDirectory() {
    return stateDir.toString().isEmpty()
        ? java.util.Optional.empty()
        : java.util.Optional.of(stateDir);
  }

  /** Section {@code name}, if the configuration has it. */
  public Optional<JsonNode> section(String name) {
    return Optional.ofNullable(sections.get(name));
  }

  /** The host root as a usable path: {@code --host-root ""} means the real root. */
  public Path hostRootOrSlash() {
    return hostRoot.toString().isEmpty() ? Path.of("/") : hostRoot;
  }

  /** The cgroup mount as a usable path: {@code --cgroup-mount ""} means {@code /sys/fs/cgroup}. */
  public Path cgroupMountOrDefault() {
    return cgroupMount.toString().isEmpty() ? Path.of("/sys/fs/cgroup") : cgroupMount;
  }

  /** A copy with other sections. */
  public ControllerContext withSections(Map<String, JsonNode> value) {
    return new ControllerContext(hostRoot, cgroupMount, value, node, stateDir);
  }

  /** A copy with another node view. */
  public ControllerContext withNode(NodeView value) {
    return new ControllerContext(hostRoot, cgroupMount, sections, value, stateDir);
  }
}
