package io.criresmgr.controllers.blockio;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code blockio} configuration section: {@code Classes}, class name to a list of {@link
 * DeviceParameters}. Later entries of a class override earlier ones for the devices they share.
 *
 * @param classes class name to its entries, in configuration order
 * @param nriClasses {@code NriClasses}: the classes NRI mode may send in the CreateContainer
 *     adjustment (NRI's {@code blockio_class}, docs/nri.md) because the runtime has them configured
 *     too; each is one of {@code classes}
 */
public record BlockIoConfig(Map<String, List<DeviceParameters>> classes, Set<String> nriClasses) {
  /** The section's top-level key. */
  public static final String SECTION = "blockio";

  /** Copies {@code classes} keeping its order; rejects an NRI class that is not a class. */
  public BlockIoConfig {
    Objects.requireNonNull(classes, "classes");
    Map<String, List<DeviceParameters>> copy = new LinkedHashMap<>();
    classes.forEach((name, entries) -> copy.put(name, List.copyOf(entries)));
    classes = Collections.unmodifiableMap(copy);
    nriClasses = Set.copyOf(nriClasses);
    for (String c : nriClasses) {
      if (!classes.containsKey(c)) {
        throw new IllegalArgumentException("NRI class \"" + c + "\" is not a class");
      }
    }
  }

  /** {@code classes}, none of them sent through NRI. */
  public BlockIoConfig(Map<String, List<DeviceParameters>> classes) {
    this(classes, Set.of());
  }

  /** No classes: block I/O control is implicitly disabled for QoS-class defaults. */
  public static BlockIoConfig empty() {
    return new BlockIoConfig(Map.of());
  }

  /**
   * Parses section {@code blockio} (missing or null: {@link #empty()}). Keys match exactly or
   * case-insensitively; sizes are Kubernetes quantities ({@code 50M}, {@code 10Mi}, {@code 5k})
   * given as strings or numbers.
   *
   * @throws BlockIoException naming the path, the value and what is allowed, e.g. {@code
   *     blockio.Classes.LowPrio[0].Weight: invalid value "5": expected a weight 10..1000}
   */
  public static BlockIoConfig parse(JsonNode section) {
    return BlockIoConfigParser.parse(section);
  }
}
