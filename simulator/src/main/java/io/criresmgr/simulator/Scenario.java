package io.criresmgr.simulator;

import io.criresmgr.cache.CpuSet;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A parsed scenario file (format: docs/scenarios.md): the node's topology, kernel-isolated CPUs,
 * cpuset cgroups and devices to create, the daemon's configuration and the steps. Immutable.
 */
public final class Scenario {
  private final String source;
  private final String topology;
  private final CpuSet isolcpus;
  private final Map<String, CpuSet> cgroups;
  private final Map<String, HostDevice> devices;
  private final String config;
  private final boolean webhook;
  private final List<Step> steps;

  Scenario(
      String source,
      String topology,
      CpuSet isolcpus,
      Map<String, CpuSet> cgroups,
      Map<String, HostDevice> devices,
      String config,
      boolean webhook,
      List<Step> steps) {
    this.source = Objects.requireNonNull(source, "source");
    this.topology = Objects.requireNonNull(topology, "topology");
    this.isolcpus = Objects.requireNonNull(isolcpus, "isolcpus");
    this.cgroups = Map.copyOf(cgroups);
    this.devices = Collections.unmodifiableMap(new LinkedHashMap<>(devices));
    this.config = Objects.requireNonNull(config, "config");
    this.webhook = webhook;
    this.steps = List.copyOf(steps);
  }

  /**
   * Reads and parses a scenario file.
   *
   * @throws ScenarioException naming the file, line and field of what is wrong
   */
  public static Scenario read(Path file) {
    try {
      return parse(file.toString(), Files.readString(file, StandardCharsets.UTF_8));
    } catch (NoSuchFileException e) {
      throw new ScenarioException(file + ": no such file", e);
    } catch (IOException e) {
      throw new ScenarioException(file + ": cannot read: " + e, e);
    }
  }

  /**
   * Parses the scenario in {@code text}; {@code source} names it in errors.
   *
   * @throws ScenarioException naming the source, line and field of what is wrong
   */
  public static Scenario parse(String source, String text) {
    return ScenarioParser.parse(source, text);
  }

  /** This scenario on another topology (a built-in name or a spec). */
  public Scenario withTopology(String spec) {
    return new Scenario(source, spec, isolcpus, cgroups, devices, config, webhook, steps);
  }

  /** This scenario with another configuration (YAML text). */
  public Scenario withConfig(String yaml) {
    return new Scenario(source, topology, isolcpus, cgroups, devices, yaml, webhook, steps);
  }

  /** Where the scenario comes from (a file name). */
  public String source() {
    return source;
  }

  /** The topology: a built-in spec name or a spec in JSON; empty if not given. */
  public String topology() {
    return topology;
  }

  /** CPUs the kernel isolates ({@code isolcpus=}). */
  public CpuSet isolcpus() {
    return isolcpus;
  }

  /** Cpuset cgroups to create below the cpuset mount, with their {@code cpuset.cpus}. */
  public Map<String, CpuSet> cgroups() {
    return cgroups;
  }

  /** Devices of the fake host by host path, in file order. */
  Map<String, HostDevice> devices() {
    return devices;
  }

  /** The daemon's configuration file (YAML); empty for the defaults. */
  public String config() {
    return config;
  }

  /** Whether pods carry the webhook's resource annotation (init containers known as such). */
  public boolean webhook() {
    return webhook;
  }

  /** The steps, in order. */
  List<Step> steps() {
    return steps;
  }
}
