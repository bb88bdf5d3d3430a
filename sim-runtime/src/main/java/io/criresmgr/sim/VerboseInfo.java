package io.criresmgr.sim;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.Device;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import java.nio.file.Path;
import java.util.Map;

/**
 * The verbose {@code info} of {@code PodSandboxStatus} in containerd's shape: key {@code "info"}
 * holds a JSON object with the sandbox's runtime details and its {@code config} in the snake_case
 * spelling of containerd's Go structs (empty values omitted, as Go's {@code omitempty} does). Only
 * the fields a client plausibly reads are there; notably {@code config.linux.cgroup_parent}, which
 * cri-resmgr reads at start-up. The verbose {@code info} of {@code ContainerStatus} holds the
 * container's OCI {@code runtimeSpec} with its mounts and devices (see {@link #of(SimContainer,
 * Path)}).
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

  /**
   * The {@code info} map of a verbose status of container {@code c}: its sandbox id and an OCI
   * {@code runtimeSpec} with the proc mount, a bind mount per mount of its config ({@code ro} or
   * {@code rw}), and per device of its config a {@code linux.devices} entry with the number of the
   * device below {@code hostRoot} (left out if it has none) and a device cgroup rule allowing its
   * permissions after one denying every device.
   */
  static Map<String, String> of(SimContainer c, Path hostRoot) {
    ObjectNode info = JSON.createObjectNode();
    info.put("sandboxID", c.podId());
    info.put("snapshotter", "overlayfs");
    ObjectNode spec = info.putObject("runtimeSpec");
    spec.put("ociVersion", "1.1.0");
    mounts(spec.putArray("mounts"), c.config());
    devices(spec.putObject("linux"), c.config(), hostRoot);
    return Map.of("info", info.toString());
  }

  private static void mounts(ArrayNode mounts, ContainerConfig config) {
    ObjectNode proc = mounts.addObject();
    proc.put("destination", "/proc").put("type", "proc").put("source", "proc");
    proc.putArray("options").add("nosuid").add("noexec").add("nodev");
    for (Mount m : config.getMountsList()) {
      ObjectNode mount = mounts.addObject();
      mount.put("destination", m.getContainerPath()).put("type", "bind");
      mount.put("source", m.getHostPath());
      mount.putArray("options").add("rbind").add("rprivate").add(m.getReadonly() ? "ro" : "rw");
    }
  }

  private static void devices(ObjectNode linux, ContainerConfig config, Path hostRoot) {
    ArrayNode devices = linux.putArray("devices");
    ArrayNode rules = linux.putObject("resources").putArray("devices");
    rules.addObject().put("allow", false).put("access", "rwm");
    for (Device d : config.getDevicesList()) {
      DeviceNumbers.of(hostRoot, d.getHostPath())
          .ifPresent(
              n -> {
                devices.addObject().put("path", d.getContainerPath()).setAll(number(n));
                ObjectNode rule = rules.addObject().put("allow", true);
                rule.setAll(number(n));
                rule.put("access", d.getPermissions());
              });
    }
  }

  private static ObjectNode number(DeviceNumbers.DeviceNumber n) {
    return JSON.createObjectNode()
        .put("type", n.type())
        .put("major", n.major())
        .put("minor", n.minor());
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
