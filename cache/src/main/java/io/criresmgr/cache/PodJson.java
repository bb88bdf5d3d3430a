package io.criresmgr.cache;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonGenerator;
import io.criresmgr.cache.ValuesJson.ResourcesJson;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A {@link Pod} in the cache file, named like cri-resmgr's persisted pod. Which init containers are
 * native sidecars is not a key of its own: it is read again from the webhook's annotation among the
 * stored {@code Annotations}, so files of older builds, which do not know sidecars, give them too.
 */
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

  void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("ID", id);
    g.writeStringField("UID", uid);
    g.writeStringField("Name", name);
    g.writeStringField("Namespace", namespace);
    StreamedJson.stringMap(g, "Labels", labels);
    StreamedJson.stringMap(g, "Annotations", annotations);
    g.writeStringField("CgroupParent", cgroupParent);
    g.writeStringField("QOSClass", qosClass.name());
    g.writeFieldName("Resources");
    resources.write(g);
    g.writeBooleanField("Ready", ready);
    g.writeEndObject();
  }

  Pod toPod() {
    return new Pod(
        id,
        SharedStrings.of(uid),
        name,
        SharedStrings.of(namespace),
        SharedStrings.of(labels),
        SharedStrings.of(annotations),
        cgroupParent,
        qosClass,
        resources.toPodResources(sidecars(annotations)),
        ready);
  }

  /** The sidecars the pod's resource annotation lists; none if it cannot be read. */
  private static Set<String> sidecars(Map<String, String> annotations) {
    try {
      return PodResourcesAnnotation.fromAnnotations(annotations).sidecars();
    } catch (IllegalArgumentException e) {
      return Set.of(); // refused at RunPodSandbox: only a file edited by hand gets here
    }
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

    void write(JsonGenerator g) throws IOException {
      g.writeStartObject();
      StreamedJson.map(g, "InitContainers", initContainers, (out, r) -> r.write(out));
      StreamedJson.map(g, "Containers", containers, (out, r) -> r.write(out));
      g.writeEndObject();
    }

    PodResources toPodResources(Set<String> sidecars) {
      return new PodResources(
          convert(initContainers, ResourcesJson::toResources),
          convert(containers, ResourcesJson::toResources),
          sidecars);
    }
  }

  static <A, B> Map<String, B> convert(Map<String, A> from, Function<A, B> conversion) {
    Map<String, B> to = new TreeMap<>();
    from.forEach((key, value) -> to.put(key, conversion.apply(value)));
    return to;
  }
}
