package io.criresmgr.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What controllers get when they start.
 *
 * @param hostRoot prefix of the host's {@code /sys} ({@code --host-root})
 * @param cgroupMount parent of the cgroup controller mounts ({@code --cgroup-mount})
 * @param sections configuration sections by name (e.g. {@code rdt}, {@code blockio}), unparsed
 */
public record ControllerContext(Path hostRoot, Path cgroupMount, Map<String, JsonNode> sections) {
  /** Checks for nulls and copies the map. */
  public ControllerContext {
    Objects.requireNonNull(hostRoot, "hostRoot");
    Objects.requireNonNull(cgroupMount, "cgroupMount");
    sections = Map.copyOf(sections);
  }
}
