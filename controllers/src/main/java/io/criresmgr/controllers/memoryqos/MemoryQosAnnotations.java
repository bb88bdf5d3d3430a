package io.criresmgr.controllers.memoryqos;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The memory QoS annotations that apply to one container. Pod annotations {@code
 * <prefix>.memory-qos.nri.io} apply to every container of the pod; {@code
 * <prefix>.memory-qos.nri.io/<container>} apply to that container only and win over the pod-level
 * value of the same prefix. Annotations for other containers and all other keys are ignored.
 *
 * @param settings by prefix ({@code class} or a cgroup v2 file name): the winning annotation
 * @param warnings annotations that look meant for this container but are ignored
 */
public record MemoryQosAnnotations(SortedMap<String, Setting> settings, List<String> warnings) {
  /** The suffix of every memory QoS annotation key. */
  public static final String SUFFIX = ".memory-qos.nri.io";

  /** The prefix that selects a class; every other prefix names a cgroup v2 file. */
  public static final String CLASS = "class";

  /** The pod-level class annotation key. */
  public static final String CLASS_KEY = CLASS + SUFFIX;

  /**
   * One effective annotation.
   *
   * @param key the annotation key it came from, for messages
   * @param value its value, verbatim
   */
  public record Setting(String key, String value) {}

  /** Copies and freezes the map and list. */
  public MemoryQosAnnotations {
    settings = Collections.unmodifiableSortedMap(new TreeMap<>(settings));
    warnings = List.copyOf(warnings);
  }

  /** The annotations of {@code podAnnotations} that apply to container {@code containerName}. */
  public static MemoryQosAnnotations of(Map<String, String> podAnnotations, String containerName) {
    String containerSuffix = SUFFIX + "/" + containerName;
    // The resource-policy plugins' form; a container name (a DNS label) never contains a dot, so
    // a key ending like this can only be a mistake for the /<container> form.
    String policyFormSuffix = SUFFIX + "/container." + containerName;
    SortedMap<String, Setting> pod = new TreeMap<>();
    SortedMap<String, Setting> container = new TreeMap<>();
    List<String> warnings = new ArrayList<>();
    for (Map.Entry<String, String> e : new TreeMap<>(podAnnotations).entrySet()) {
      String key = e.getKey();
      Setting setting = new Setting(key, e.getValue());
      if (key.endsWith(containerSuffix)) {
        container.put(prefix(key, containerSuffix), setting);
      } else if (key.endsWith(SUFFIX)) {
        pod.put(prefix(key, SUFFIX), setting);
      } else if (key.endsWith(policyFormSuffix)) {
        warnings.add(
            key
                + ": ignored, memory QoS annotations name the container as "
                + prefix(key, policyFormSuffix)
                + containerSuffix);
      }
    }
    pod.putAll(container);
    return new MemoryQosAnnotations(pod, warnings);
  }

  private static String prefix(String key, String suffix) {
    return key.substring(0, key.length() - suffix.length());
  }
}
