package io.criresmgr.controllers.blockio;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configured classes with their effective parameters on this host.
 *
 * @param classes class name to parameters, in configuration order
 * @param warnings devices that matched nothing or were ignored, and weights set on devices whose
 *     I/O scheduler ignores them; the caller logs them once per configuration
 */
public record ResolvedClasses(Map<String, BlockIoParameters> classes, List<String> warnings) {
  /** Copies both, keeping the order. */
  public ResolvedClasses {
    classes = Collections.unmodifiableMap(new LinkedHashMap<>(classes));
    warnings = List.copyOf(warnings);
  }
}
