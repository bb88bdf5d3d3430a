package io.criresmgr.controllers.memtierd;

import io.criresmgr.controllers.ControllerException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * What the memtierd annotations decide for one container. Pod annotations {@code
 * <prefix>.memtierd.nri.io} apply to every container; {@code <prefix>.memtierd.nri.io/<container>}
 * apply to that container only and win. Prefixes: {@code class} (an empty value means no class),
 * and {@code memory.swap.max} / {@code memory.high}, set verbatim and winning over the class's
 * {@code allowswap}. Other prefixes are only warned about, as in the original plugin.
 *
 * @param memtierdClass the chosen class, if any
 * @param unified the cgroup v2 files to set, sorted by name ({@code memory.swap.max}, {@code
 *     memory.high})
 * @param warnings annotations that are ignored
 */
public record MemtierdChoice(
    @Nullable MemtierdClass memtierdClass, Map<String, String> unified, List<String> warnings) {
  /** The suffix of every memtierd annotation key. */
  public static final String SUFFIX = ".memtierd.nri.io";

  /** The pod-level class annotation key. */
  public static final String CLASS_KEY = "class" + SUFFIX;

  private static final List<String> DIRECT = List.of("memory.swap.max", "memory.high");

  /** Copies and freezes the map and list. */
  public MemtierdChoice {
    unified = Collections.unmodifiableMap(new TreeMap<>(unified));
    warnings = List.copyOf(warnings);
  }

  /** The class, if any. */
  public Optional<MemtierdClass> chosenClass() {
    return Optional.ofNullable(memtierdClass);
  }

  /**
   * The choice for container {@code containerName} of a pod with {@code podAnnotations}.
   *
   * @throws ControllerException {@code unknown memtierd class "<x>" (annotation <key>), configured
   *     classes: <names>} for a non-empty class that is not configured
   */
  public static MemtierdChoice of(
      MemtierdConfig config, Map<String, String> podAnnotations, String containerName) {
    SortedMap<String, Map.Entry<String, String>> effective =
        effective(podAnnotations, containerName);
    SortedMap<String, String> unified = new TreeMap<>();
    List<String> warnings = new ArrayList<>();
    MemtierdClass chosen = null;
    for (Map.Entry<String, Map.Entry<String, String>> e : effective.entrySet()) {
      String key = e.getValue().getKey();
      String value = e.getValue().getValue();
      if (e.getKey().equals("class")) {
        chosen = value.isEmpty() ? null : find(config, key, value);
      } else if (DIRECT.contains(e.getKey())) {
        unified.put(e.getKey(), value);
      } else {
        warnings.add(
            key + ": ignored, memtierd annotations are class, memory.swap.max, memory.high");
      }
    }
    if (chosen != null && chosen.allowSwap() != null) {
      unified.putIfAbsent("memory.swap.max", chosen.allowSwap() ? "max" : "0");
    }
    return new MemtierdChoice(chosen, unified, warnings);
  }

  private static MemtierdClass find(MemtierdConfig config, String key, String name) {
    return config
        .find(name)
        .orElseThrow(
            () ->
                new ControllerException(
                    "unknown memtierd class \""
                        + name
                        + "\" (annotation "
                        + key
                        + "), configured classes: "
                        + config.classes().stream().map(MemtierdClass::name).toList()));
  }

  /** By prefix: the winning annotation key and value. */
  private static SortedMap<String, Map.Entry<String, String>> effective(
      Map<String, String> podAnnotations, String containerName) {
    String containerSuffix = SUFFIX + "/" + containerName;
    SortedMap<String, Map.Entry<String, String>> pod = new TreeMap<>();
    SortedMap<String, Map.Entry<String, String>> container = new TreeMap<>();
    for (Map.Entry<String, String> e : new TreeMap<>(podAnnotations).entrySet()) {
      String key = e.getKey();
      if (key.endsWith(containerSuffix)) {
        container.put(prefix(key, containerSuffix), Map.entry(key, e.getValue()));
      } else if (key.endsWith(SUFFIX)) {
        pod.put(prefix(key, SUFFIX), Map.entry(key, e.getValue()));
      }
    }
    pod.putAll(container);
    return pod;
  }

  private static String prefix(String key, String suffix) {
    return key.substring(0, key.length() - suffix.length());
  }
}
