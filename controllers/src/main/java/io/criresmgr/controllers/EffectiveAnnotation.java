package io.criresmgr.controllers;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A container's effective pod annotation: the first of {@code <key>/container.<name>}, {@code
 * <key>/pod} and {@code <key>}, trying for each form the keys in the order given (cri-resmgr's
 * before nri-plugins').
 *
 * @param key the full key found, e.g. {@code rdtclass.cri-resource-manager.intel.com/pod}
 * @param value its value, trimmed
 */
public record EffectiveAnnotation(String key, String value) {
  /** Checks for nulls. */
  public EffectiveAnnotation {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }

  /** The effective annotation of {@code container} among {@code keys}, if any is set. */
  public static Optional<EffectiveAnnotation> of(
      Map<String, String> podAnnotations, String container, List<String> keys) {
    for (String suffix : List.of("/container." + container, "/pod", "")) {
      for (String key : keys) {
        String value = podAnnotations.get(key + suffix);
        if (value != null) {
          return Optional.of(new EffectiveAnnotation(key + suffix, value.trim()));
        }
      }
    }
    return Optional.empty();
  }
}
