package io.criresmgr.controllers.rdt;

import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.EffectiveAnnotation;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RDT class a container asks for, and where that came from.
 *
 * @param className the class name; empty means the root class
 * @param source the annotation key that named it, or {@code qos class} for the default
 */
public record RdtClassChoice(String className, String source) {
  /** cri-resmgr's annotation key. */
  public static final String CRI_RESMGR_KEY = "rdtclass.cri-resource-manager.intel.com";

  /** nri-plugins' annotation key. */
  public static final String NRI_KEY = "rdtclass.resource-policy.nri.io";

  /** The {@link #source} of a class taken from the pod's QoS class. */
  public static final String QOS_SOURCE = "qos class";

  private static final Logger LOG = LoggerFactory.getLogger(RdtClassChoice.class);

  /** Checks for nulls. */
  public RdtClassChoice {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(source, "source");
  }

  /**
   * The class of container {@code container}: the first of {@code <key>/container.<container>},
   * {@code <key>/pod}, {@code <key>} (cri-resmgr's key before nri-plugins' for each form), else the
   * QoS class name.
   */
  public static RdtClassChoice of(
      Map<String, String> podAnnotations, String container, QosClass qos) {
    return EffectiveAnnotation.of(podAnnotations, container, List.of(CRI_RESMGR_KEY, NRI_KEY))
        .map(a -> new RdtClassChoice(a.value(), a.key()))
        .orElseGet(() -> new RdtClassChoice(qos.label(), QOS_SOURCE));
  }

  /**
   * The resctrl class to use ({@code ""}: root), as cri-resmgr resolves it: the QoS default only
   * when QoS mapping is on (Full mode with more than one class), in Disabled mode always root, and
   * an unknown class falls back to root with a warning.
   */
  public String resolve(RdtConfig config) {
    return resolve(config, Set.of());
  }

  /**
   * As {@link #resolve(RdtConfig)}, but in Discovery mode the classes are the {@code discovered}
   * resctrl groups (see {@link ResctrlGroups#existing()} with prefix {@code ""}), and the QoS
   * default maps only if a group named like a QoS class exists.
   */
  public String resolve(RdtConfig config, Set<String> discovered) {
    if (config.mode() == RdtMode.DISABLED || className.isEmpty()) {
      return "";
    }
    boolean discovery = config.mode() == RdtMode.DISCOVERY;
    Set<String> known =
        discovery
            ? discovered
            : config.classes().stream().map(RdtClass::name).collect(Collectors.toSet());
    boolean qosMapping =
        discovery
            ? Arrays.stream(QosClass.values()).anyMatch(q -> discovered.contains(q.label()))
            : known.size() > 1;
    if (source.equals(QOS_SOURCE) && !qosMapping) {
      return "";
    }
    if (!known.contains(className)) {
      LOG.warn(
          "RDT class \"{}\" (from {}) does not exist, using the root class", className, source);
      return "";
    }
    return className;
  }
}
