package io.criresmgr.controllers.blockio;

import io.criresmgr.cache.QosClass;
import io.criresmgr.controllers.EffectiveAnnotation;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The block I/O class a container asks for, and where that came from.
 *
 * @param className the class name; empty when an annotation sets no class
 * @param source the annotation key that named it, or {@code qos class} for the default
 */
public record BlockIoClassChoice(String className, String source) {
  /** cri-resmgr's annotation key. */
  public static final String CRI_RESMGR_KEY = "blockioclass.cri-resource-manager.intel.com";

  /** nri-plugins' annotation key. */
  public static final String NRI_KEY = "blockioclass.resource-policy.nri.io";

  /** The {@link #source} of a class taken from the pod's QoS class. */
  public static final String QOS_SOURCE = "qos class";

  /** Checks for nulls. */
  public BlockIoClassChoice {
    Objects.requireNonNull(className, "className");
    Objects.requireNonNull(source, "source");
  }

  /**
   * The class of container {@code container} of a pod with {@code podAnnotations}: the first of
   * {@code <key>/container.<container>}, {@code <key>/pod}, {@code <key>}, trying for each form the
   * cri-resmgr key before the nri-plugins key; without any, the QoS class name ({@code Guaranteed},
   * {@code Burstable}, {@code BestEffort}), as cri-resmgr's cache defaults it.
   */
  public static BlockIoClassChoice of(
      Map<String, String> podAnnotations, String container, QosClass qos) {
    return EffectiveAnnotation.of(podAnnotations, container, List.of(CRI_RESMGR_KEY, NRI_KEY))
        .map(a -> new BlockIoClassChoice(a.value(), a.key()))
        .orElseGet(() -> new BlockIoClassChoice(qos.label(), QOS_SOURCE));
  }

  /** Whether the class is the QoS-class default rather than an annotation. */
  public boolean fromQos() {
    return source.equals(QOS_SOURCE);
  }

  /**
   * The parameters to write for this choice, or empty when nothing is to be written: an empty class
   * name, or a QoS-class default that is not a configured class (with no classes at all block I/O
   * control is implicitly disabled, as in cri-resmgr; with some, containers of the other QoS
   * classes keep what the runtime gave them instead of a warning at every start).
   *
   * @throws BlockIoException for a class that is not configured, naming the class, its source and
   *     the configured classes
   */
  public Optional<BlockIoParameters> parameters(ResolvedClasses classes) {
    if (className.isEmpty() || (fromQos() && !classes.classes().containsKey(className))) {
      return Optional.empty();
    }
    BlockIoParameters p = classes.classes().get(className);
    if (p == null) {
      throw new BlockIoException(
          "block I/O class \""
              + className
              + "\" (from "
              + source
              + ") is not configured; "
              + "configured classes: "
              + known(classes));
    }
    return Optional.of(p);
  }

  private static String known(ResolvedClasses classes) {
    return classes.classes().isEmpty() ? "none" : String.join(", ", classes.classes().keySet());
  }
}
