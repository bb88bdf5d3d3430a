package io.criresmgr.fuzz;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.Pod;
import io.criresmgr.cache.PodResources;
import io.criresmgr.cache.QosClass;
import io.criresmgr.cache.Resources;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Pods and containers carrying fuzzed annotations. The input is {@code key NUL value NUL key NUL
 * value ...} in UTF-8, so seed files are real annotations, readable and editable by hand.
 */
final class FuzzedPods {
  /** The name of the container of every fuzzed pod. */
  static final String CONTAINER = "app";

  private FuzzedPods() {}

  /** The annotations in {@code input}; a later key replaces an earlier one. */
  static Map<String, String> annotations(byte[] input) {
    String[] parts = new String(input, StandardCharsets.UTF_8).split("\0", -1);
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < parts.length; i += 2) {
      out.put(parts[i], i + 1 < parts.length ? parts[i + 1] : "");
    }
    return out;
  }

  /** A Guaranteed pod {@code web} in namespace {@code default} with {@code annotations}. */
  static Pod pod(Map<String, String> annotations) {
    return new Pod(
        "sandbox-web",
        "uid-web",
        "web",
        "default",
        Map.of(),
        annotations,
        "/kubepods/podweb",
        QosClass.GUARANTEED,
        PodResources.NONE,
        true);
  }

  /** Container {@link #CONTAINER} of {@code pod} as the pipeline creates it, one CPU, 64 MiB. */
  static Container container(Pod pod) {
    Resources one = new Resources(1000, 1000, 64L << 20, 64L << 20);
    return Container.builder()
        .cacheId(Container.cacheId(pod.uid(), CONTAINER))
        .podId(pod.id())
        .name(CONTAINER)
        .namespace(pod.namespace())
        .image("busybox")
        .state(ContainerState.CREATING)
        .resources(one)
        .qosClass(QosClass.GUARANTEED)
        .seq(1)
        .build();
  }

  /** A cache holding {@code pod} and {@code container}. */
  static NodeCache cache(Pod pod, Container container) {
    NodeCache cache = new NodeCache();
    cache.putPod(pod);
    cache.putContainer(container);
    return cache;
  }
}
