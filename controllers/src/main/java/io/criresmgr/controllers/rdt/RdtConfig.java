package io.criresmgr.controllers.rdt;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The {@code rdt} configuration section (cri-resmgr's, goresctrl's {@code rdt.Config} plus {@code
 * options.mode} and {@code options.monitoringDisabled}).
 *
 * <pre>
 * rdt:
 *   options: {mode: Full, monitoringDisabled: false, l3: {optional: true}, mb: {optional: true}}
 *   partitions:
 *     exclusive: {l3Allocation: "60%", mbAllocation: ["100%"], classes: {Guaranteed: {l3Allocation: "100%"}}}
 *     shared: {l3Allocation: "40%", mbAllocation: ["50%"], classes: {BestEffort: {l3Allocation: "50%"}}}
 * </pre>
 *
 * @param mode what to do with resctrl
 * @param monitoringDisabled whether monitoring groups are not created
 * @param l2Optional whether a missing L2 allocation support is ignored
 * @param l3Optional whether a missing L3 allocation support is ignored
 * @param mbOptional whether a missing memory bandwidth allocation support is ignored
 * @param partitions the partitions, sorted by name (the order of percentage layout)
 * @param nriClasses whether NRI mode sends a container's class in the CreateContainer adjustment
 *     (NRI's {@code rdt_class}, docs/nri.md); only with {@link RdtMode#DISCOVERY}, whose groups are
 *     named like their classes as the runtime looks them up
 */
public record RdtConfig(
    RdtMode mode,
    boolean monitoringDisabled,
    boolean l2Optional,
    boolean l3Optional,
    boolean mbOptional,
    List<RdtPartition> partitions,
    boolean nriClasses) {
  /** The section name in the configuration file. */
  public static final String SECTION = "rdt";

  /** No section: Full mode, no partitions. */
  public static final RdtConfig EMPTY =
      new RdtConfig(RdtMode.FULL, false, false, false, false, List.of(), false);

  /** Copies the list; rejects class names used twice and {@code nriClasses} outside Discovery. */
  public RdtConfig {
    Objects.requireNonNull(mode, "mode");
    if (nriClasses && mode != RdtMode.DISCOVERY) {
      throw new IllegalArgumentException(
          "nriClasses needs mode " + RdtMode.DISCOVERY.label() + ", not " + mode.label());
    }
    partitions = List.copyOf(partitions);
    Set<String> names = new HashSet<>();
    for (RdtPartition p : partitions) {
      for (RdtClass c : p.classes()) {
        if (!names.add(c.name())) {
          throw new IllegalArgumentException("duplicate class name \"" + c.name() + "\"");
        }
      }
    }
  }

  /** All classes of all partitions, partitions in name order. */
  public List<RdtClass> classes() {
    return partitions.stream().flatMap(p -> p.classes().stream()).toList();
  }

  /** The class called {@code name} (case-sensitive). */
  public Optional<RdtClass> find(String name) {
    return classes().stream().filter(c -> c.name().equals(name)).findFirst();
  }

  /**
   * Parses section {@code rdt}; a missing or null section is {@link #EMPTY}. Errors name the path,
   * the value and what is allowed, e.g. {@code rdt.partitions.shared.l3Allocation: invalid value
   * "40": expected a percentage ...}.
   *
   * @throws RdtException if the section is invalid
   */
  public static RdtConfig parse(JsonNode section) {
    return RdtConfigParser.parse(SECTION, section);
  }
}
