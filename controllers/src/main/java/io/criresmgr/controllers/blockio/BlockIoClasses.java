package io.criresmgr.controllers.blockio;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Turns {@link BlockIoConfig} into {@link ResolvedClasses}: each class's entries are applied in
 * order to the devices their globs find now, so a later entry overrides an earlier one for a shared
 * device. Devices are resolved once per configuration (cri-resmgr's "static" classes): disks added
 * later are covered after the next configuration update.
 */
public final class BlockIoClasses {
  private BlockIoClasses() {}

  /** Resolves every class of {@code config} with {@code resolver}. */
  public static ResolvedClasses resolve(BlockIoConfig config, BlockDeviceResolver resolver) {
    Map<String, BlockIoParameters> classes = new LinkedHashMap<>();
    List<String> warnings = new ArrayList<>();
    config
        .classes()
        .forEach((name, entries) -> classes.put(name, resolve(name, entries, resolver, warnings)));
    return new ResolvedClasses(classes, warnings);
  }

  private static BlockIoParameters resolve(
      String name, List<DeviceParameters> entries, BlockDeviceResolver r, List<String> warnings) {
    OptionalLong weight = OptionalLong.empty();
    // per-device values in BlockIoParameters' order: weight, read/write bps, read/write iops
    List<SortedMap<DeviceNumber, Long>> maps = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      maps.add(new TreeMap<>());
    }
    for (DeviceParameters p : entries) {
      if (p.devices().isEmpty()) {
        weight = p.weight().isPresent() ? p.weight() : weight;
      } else {
        applyToDevices(name, p, r, maps, warnings);
      }
    }
    return new BlockIoParameters(
        weight, maps.get(0), maps.get(1), maps.get(2), maps.get(3), maps.get(4));
  }

  private static void applyToDevices(
      String name,
      DeviceParameters p,
      BlockDeviceResolver r,
      List<SortedMap<DeviceNumber, Long>> maps,
      List<String> warnings) {
    DeviceResolution found = r.resolve(p.devices());
    found.warnings().forEach(w -> warnings.add("class " + name + ": " + w));
    if (found.devices().isEmpty()) {
      warnings.add(
          "class "
              + name
              + ": no matches on any of Devices "
              + p.devices()
              + ", parameters ignored");
    }
    for (BlockDevice d : found.devices()) {
      apply(d, p, maps);
      schedulerWarning(name, d, p, r).ifPresent(warnings::add);
    }
  }

  private static void apply(
      BlockDevice d, DeviceParameters p, List<SortedMap<DeviceNumber, Long>> m) {
    List<OptionalLong> values =
        List.of(
            p.weight(),
            p.throttleReadBps(),
            p.throttleWriteBps(),
            p.throttleReadIops(),
            p.throttleWriteIops());
    for (int i = 0; i < values.size(); i++) {
      if (values.get(i).isPresent()) {
        m.get(i).put(d.number(), values.get(i).getAsLong());
      }
    }
  }

  private static Optional<String> schedulerWarning(
      String name, BlockDevice d, DeviceParameters p, BlockDeviceResolver r) {
    if (p.weight().isEmpty()) {
      return Optional.empty();
    }
    return r.scheduler(d)
        .filter(s -> !s.equals("bfq") && !s.equals("cfq"))
        .map(
            s ->
                "class "
                    + name
                    + ": weight has no effect on device \""
                    + d.devNode()
                    + "\" due to incompatible I/O scheduler \""
                    + s
                    + "\" (bfq or cfq required)");
  }
}
