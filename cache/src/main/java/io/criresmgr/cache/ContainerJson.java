package io.criresmgr.cache;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonGenerator;
import io.criresmgr.cache.ValuesJson.AdjustmentJson;
import io.criresmgr.cache.ValuesJson.AssignmentJson;
import io.criresmgr.cache.ValuesJson.LinuxReqJson;
import io.criresmgr.cache.ValuesJson.ResourcesJson;
import io.criresmgr.cache.ValuesJson.TopologyHintJson;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A {@link Container} in the cache file, named like cri-resmgr's persisted container. Unlike
 * cri-resmgr we persist the pending controllers: a change not enforced before a crash is still
 * owed.
 */
record ContainerJson(
    @JsonProperty("CacheID") String cacheId,
    @JsonProperty("ID") String id,
    @JsonProperty("PodID") String podId,
    @JsonProperty("Name") String name,
    @JsonProperty("Namespace") String namespace,
    @JsonProperty("InitContainer") boolean initContainer,
    @JsonProperty("Labels") Map<String, String> labels,
    @JsonProperty("Annotations") Map<String, String> annotations,
    @JsonProperty("Image") String image,
    @JsonProperty("State") ContainerState state,
    @JsonProperty("LinuxReq") LinuxReqJson requested,
    @JsonProperty("Resources") ResourcesJson resources,
    @JsonProperty("QOSClass") QosClass qosClass,
    @JsonProperty("Assignment") AssignmentJson assignment,
    @JsonProperty("Pending") List<String> pending,
    @JsonProperty("Seq") long seq,
    @JsonProperty("Adjustment") @JsonSetter(nulls = Nulls.SET) @Nullable AdjustmentJson adjustment,
    @JsonProperty("TopologyHints") List<TopologyHintJson> topologyHints) {

  static ContainerJson from(Container c) {
    return new ContainerJson(
        c.cacheId(),
        c.id(),
        c.podId(),
        c.name(),
        c.namespace(),
        c.initContainer(),
        c.labels(),
        c.annotations(),
        c.image(),
        c.state(),
        LinuxReqJson.from(c.requested()),
        ResourcesJson.from(c.resources()),
        c.qosClass(),
        AssignmentJson.from(c.assignment()),
        List.copyOf(c.pending()),
        c.seq(),
        c.adjustment().isNone() ? null : AdjustmentJson.from(c.adjustment()),
        c.topologyHints().stream().map(TopologyHintJson::from).toList());
  }

  void write(JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("CacheID", cacheId);
    g.writeStringField("ID", id);
    g.writeStringField("PodID", podId);
    g.writeStringField("Name", name);
    g.writeStringField("Namespace", namespace);
    g.writeBooleanField("InitContainer", initContainer);
    StreamedJson.stringMap(g, "Labels", labels);
    StreamedJson.stringMap(g, "Annotations", annotations);
    g.writeStringField("Image", image);
    g.writeStringField("State", state.name());
    g.writeFieldName("LinuxReq");
    requested.write(g);
    g.writeFieldName("Resources");
    resources.write(g);
    g.writeStringField("QOSClass", qosClass.name());
    g.writeFieldName("Assignment");
    assignment.write(g);
    StreamedJson.list(g, "Pending", pending, JsonGenerator::writeString);
    g.writeNumberField("Seq", seq);
    StreamedJson.nullable(g, "Adjustment", adjustment, (out, a) -> a.write(out));
    StreamedJson.list(g, "TopologyHints", topologyHints, (out, h) -> h.write(out));
    g.writeEndObject();
  }

  Container toContainer() {
    return Container.builder()
        .cacheId(cacheId)
        .id(id)
        .podId(podId)
        .name(SharedStrings.of(name))
        .namespace(SharedStrings.of(namespace))
        .initContainer(initContainer)
        .labels(SharedStrings.of(labels))
        .annotations(SharedStrings.of(annotations))
        .image(SharedStrings.of(image))
        .state(state)
        .requested(requested.toLinuxResources())
        .resources(resources.toResources())
        .qosClass(qosClass)
        .assignment(assignment.toAssignment())
        .pending(Set.copyOf(pending))
        .seq(seq)
        .adjustment(adjustment == null ? Adjustment.NONE : adjustment.toAdjustment())
        .topologyHints(topologyHints.stream().map(TopologyHintJson::toHint).toList())
        .build();
  }
}
