package io.criresmgr.controllers.memoryqos;

import io.criresmgr.controllers.memoryqos.MemoryQosAnnotations.Setting;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Decides a container's cgroup v2 memory files from its pod's memory QoS annotations, as the
 * nri-plugins memory-qos plugin documents it (see {@code docs/controllers/memory-qos.md}):
 *
 * <ol>
 *   <li>The class ({@code class.memory-qos.nri.io[/<container>]}, an empty value meaning no class)
 *       with {@code swaplimitratio > 0} sets {@code memory.high = limit * (1 - ratio)} and {@code
 *       memory.swap.max = max}.
 *   <li>Direct annotations {@code <file>.memory-qos.nri.io[/<container>]} set {@code <file>} to
 *       their value, overriding the class, if {@code unifiedannotations} allows the file.
 * </ol>
 *
 * An unknown class, a disallowed file, an empty file value, or a class with a ratio above 0 for a
 * container without a memory limit fail the decision with a {@link MemoryQosException} listing
 * every problem. Immutable and thread-safe.
 */
public final class MemoryQos {
  /** The cgroup v2 file the class's ratio sets. */
  public static final String MEMORY_HIGH = "memory.high";

  /** The cgroup v2 file a class with a ratio above 0 sets to {@code max}. */
  public static final String MEMORY_SWAP_MAX = "memory.swap.max";

  private final MemoryQosConfig config;

  /** Decides with {@code config}. */
  public MemoryQos(MemoryQosConfig config) {
    this.config = Objects.requireNonNull(config, "config");
  }

  /** The configuration this instance decides with. */
  public MemoryQosConfig config() {
    return config;
  }

  /**
   * The files to set for container {@code containerName} of a pod with {@code podAnnotations}.
   *
   * @param memoryLimitBytes the container's memory limit in bytes, 0 if it has none (CRI {@code
   *     memory_limit_in_bytes})
   * @throws MemoryQosException if the annotations cannot be honoured; the container must not be
   *     created
   * @throws IllegalArgumentException if {@code memoryLimitBytes} is negative
   */
  public MemoryQosDecision decide(
      Map<String, String> podAnnotations, String containerName, long memoryLimitBytes) {
    if (memoryLimitBytes < 0) {
      throw new IllegalArgumentException("negative memory limit " + memoryLimitBytes);
    }
    MemoryQosAnnotations effective = MemoryQosAnnotations.of(podAnnotations, containerName);
    List<String> problems = new ArrayList<>();
    SortedMap<String, String> unified = new TreeMap<>();
    Setting cls = effective.settings().get(MemoryQosAnnotations.CLASS);
    // An empty class value removes the pod-level class from this container, as documented.
    Optional<String> qosClass =
        Optional.ofNullable(cls).map(Setting::value).filter(v -> !v.isEmpty());
    if (cls != null && qosClass.isPresent()) {
      applyClass(qosClass.get(), cls.key(), containerName, memoryLimitBytes, unified, problems);
    }
    // Direct annotations after the class: their values override the class's.
    for (Map.Entry<String, Setting> e : effective.settings().entrySet()) {
      if (!e.getKey().equals(MemoryQosAnnotations.CLASS)) {
        applyFile(e.getKey(), e.getValue(), unified, problems);
      }
    }
    if (!problems.isEmpty()) {
      throw new MemoryQosException(containerName, problems);
    }
    return new MemoryQosDecision(qosClass, unified, effective.warnings());
  }

  private void applyClass(
      String name,
      String key,
      String containerName,
      long limit,
      Map<String, String> unified,
      List<String> problems) {
    Optional<MemoryQosClass> found = config.find(name);
    if (found.isEmpty()) {
      problems.add(key + ": unknown class \"" + name + "\", " + knownClasses());
      return;
    }
    float ratio = found.get().swapLimitRatio();
    if (ratio <= 0.0f) {
      return;
    }
    if (limit == 0) {
      problems.add(
          key
              + ": class \""
              + name
              + "\" (swaplimitratio "
              + ratio
              + ") needs a memory limit,"
              + " but the container has none: set resources.limits.memory or remove the class"
              + " with "
              + MemoryQosAnnotations.CLASS_KEY
              + "/"
              + containerName
              + ": \"\"");
      return;
    }
    unified.put(MEMORY_HIGH, Long.toString(memoryHigh(limit, ratio)));
    unified.put(MEMORY_SWAP_MAX, "max");
  }

  private String knownClasses() {
    return config.classes().isEmpty()
        ? "no classes are configured (memory-qos.classes)"
        : "expected one of "
            + String.join(", ", config.classes().stream().map(MemoryQosClass::name).toList());
  }

  private void applyFile(
      String file, Setting s, Map<String, String> unified, List<String> problems) {
    if (!config.allows(file)) {
      problems.add(
          s.key()
              + ": file \""
              + file
              + "\" may not be set by annotations, "
              + (config.unifiedAnnotations().isEmpty()
                  ? "memory-qos.unifiedannotations allows none"
                  : "memory-qos.unifiedannotations allows "
                      + String.join(", ", config.unifiedAnnotations())));
    } else if (s.value().isEmpty()) {
      problems.add(
          s.key()
              + ": empty value, give the value to write to "
              + file
              + " (e.g. max or a number of bytes)");
    } else {
      unified.put(file, s.value());
    }
  }

  /**
   * {@code memory.high} for {@code limitBytes} and {@code ratio}: {@code limit * (1 - ratio)}
   * computed in {@code float} and truncated toward zero, exactly as the original plugin's {@code
   * int64(float32(limit) * (float32(1.0) - ratio))}; e.g. 1 GiB at 0.2 gives 858993472, not
   * 858993459.
   */
  public static long memoryHigh(long limitBytes, float ratio) {
    return (long) ((float) limitBytes * (1.0f - ratio));
  }
}
