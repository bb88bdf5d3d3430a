package io.criresmgr.cache;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.criresmgr.cache.ValuesJson.ResourcesJson;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/** A {@link Pod} in the cache file, named like cri-resmgr's persisted pod. */
record PodJson(
    @JsonProperty("ID") String id,
    @JsonProperty("UID") String uid,
    @JsonProperty("Name") String name,
    @JsonProperty("Namespace") String namespace,
    @JsonProperty("Labels") Map<String, String> labels,
    @JsonProperty("Annotations") Map<String, String> annotations,
    @JsonProperty("CgroupParent") String cgroupParent,
    @JsonProperty("QOSClass") QosClass qosClass,
    @JsonProperty("Resources") PodResourcesJson resources,
    @JsonProperty("Ready") boolean ready) {

  static PodJson from(Pod p) {
    return new PodJson(
        p.id(),
        p.uid(),
        p.name(),
        p.namespace(),
        p.labels(),
        p.annotations(),
        p.cgroupParent(),
        p.qosClass(),
        PodResourcesJson.from(p.resources()),
        p.ready());
  }

  Pod toPod() {
    return new Pod(
        id,
        uid,
        name,
        namespace,
        labels,
        annotations,
        cgroupParent,
        qosClass,
        resources.toPodResources(),
        ready);
  }

  /** {@link PodResources} in the file. */
  record PodResourcesJson(
      @JsonProperty("InitContainers") Map<String, ResourcesJson> initContainers,
      @JsonProperty("Containers") Map<String, ResourcesJson> containers) {
    static PodResourcesJson from(PodResources r) {
      return new PodResourcesJson(
          convert(r.initContainers(), ResourcesJson::from),
          convert(r.containers(), ResourcesJson::from));
    }

    PodResources toPodResources() {
      return new PodResources(
          convert(initContainers, ResourcesJson::toResources),
          convert(containers, ResourcesJson::toResources));
    }
  }

  static <A, B> Map<String, B> convert(Map<String, A> from, Function<A, B> conversion) {
    Map<String, B> to = new TreeMap<>();
    from.forEach((key, value) -> to.put(key, conversion.apply(value)));
    return to;
  }
}
