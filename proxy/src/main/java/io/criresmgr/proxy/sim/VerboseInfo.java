package io.criresmgr.proxy.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import java.util.Map;

/**
 * The verbose {@code info} of {@code PodSandboxStatus} in containerd's shape: key {@code "info"}
 * holds a JSON object with the sandbox's runtime details and its {@code config} in the snake_case
 * spelling of containerd's Go structs (empty values omitted, as Go's {@code omitempty} does). Only
 * the fields a client plausibly reads are there; notably {@code config.linux.cgroup_parent}, which
 * cri-resmgr reads at start-up.
 */
final class VerboseInfo {
  /** The image containerd runs as the sandbox (kubelet's default pause image). */
  static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";

  private static final ObjectMapper JSON = new ObjectMapper();

  private VerboseInfo() {}

  /** The {@code info} map of a verbose status of {@code pod}. */
  static Map<String, String> of(SimPod pod) {
    ObjectNode info = JSON.createObjectNode();
    info.put("processStatus", pod.isReady() ? "running" : "stopped");
    info.put("netNamespaceClosed", !pod.isReady());
    info.put("image", PAUSE_IMAGE);
    info.put("snapshotter", "overlayfs");
    info.put("runtimeHandler", pod.runtimeHandler());
    info.put("runtimeType", "io.containerd.runc.v2");
    info.set("config", config(pod.config()));
    return Map.of("info", info.toString());
  }

  private static ObjectNode config(PodSandboxConfig config) {
    ObjectNode node = JSON.createObjectNode();
    var m = config.getMetadata();
    ObjectNode metadata = node.putObject("metadata");
    putIfSet(metadata, "name", m.getName());
    putIfSet(metadata, "uid", m.getUid());
    putIfSet(metadata, "namespace", m.getNamespace());
    if (m.getAttempt() != 0) {
      metadata.put("attempt", m.getAttempt());
    }
    putIfSet(node, "hostname", config.getHostname());
    putIfSet(node, "log_directory", config.getLogDirectory());
    putMap(node, "labels", config.getLabelsMap());
    putMap(node, "annotations", config.getAnnotationsMap());
    if (config.hasLinux()) {
      putIfSet(node.putObject("linux"), "cgroup_parent", config.getLinux().getCgroupParent());
    }
    return node;
  }

  private static void putIfSet(ObjectNode node, String field, String value) {
    if (!value.isEmpty()) {
      node.put(field, value);
    }
  }

  private static void putMap(ObjectNode node, String field, Map<String, String> values) {
    if (!values.isEmpty()) {
      ObjectNode map = node.putObject(field);
      values.forEach(map::put);
    }
  }
}
