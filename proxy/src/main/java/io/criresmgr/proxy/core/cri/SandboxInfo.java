package io.criresmgr.proxy.core.cri;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Reads the runtime-specific JSON of a verbose {@code PodSandboxStatus} ({@code info["info"]}). */
final class SandboxInfo {
  /** The key of the verbose info map both containerd and CRI-O fill. */
  static final String KEY = "info";

  private static final Logger log = LoggerFactory.getLogger(SandboxInfo.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CRIO_CGROUP_PARENT = "io.kubernetes.cri-o.CgroupParent";

  private SandboxInfo() {}

  /** The cgroup parent in containerd's or CRI-O's shape; empty if absent or malformed. */
  static String cgroupParent(String sandboxId, @Nullable String info) {
    if (info == null || info.isEmpty()) {
      return "";
    }
    JsonNode root;
    try {
      root = JSON.readTree(info);
    } catch (JsonProcessingException e) {
      log.warn(
          "pod sandbox {}: cannot read the verbose status info, assuming no cgroup parent: {}",
          sandboxId,
          e.getOriginalMessage());
      return "";
    }
    JsonNode containerd = root.path("config").path("linux").path("cgroup_parent");
    if (containerd.isTextual()) {
      return containerd.asText();
    }
    JsonNode crio = root.path("runtimeSpec").path("annotations").path(CRIO_CGROUP_PARENT);
    return crio.isTextual() ? crio.asText() : "";
  }
}
