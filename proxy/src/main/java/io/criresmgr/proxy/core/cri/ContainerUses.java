package io.criresmgr.proxy.core.cri;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.ContainerStatusResponse;
import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.policy.sysfs.DeviceHints;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The mounts and devices of a running container as the runtime reports them, for the device hints
 * of a container adopted at start-up (docs/topology.md, "Device hints"). They come from the OCI
 * spec in a verbose {@code ContainerStatus} ({@code info["info"]}, key {@code runtimeSpec};
 * containerd and CRI-O): bind mounts with an absolute source (read-only with option {@code ro}) and
 * the character and block devices of {@code linux.devices} by number, read-only when the last
 * device cgroup rule that matches them and names {@code w} denies it. Without that spec only the
 * status's {@code mounts} are known.
 *
 * @param mounts the mounts, as at creation ({@link ContainerCodec#uses})
 * @param devices the device nodes
 */
public record ContainerUses(List<DeviceHints.Use> mounts, List<DeviceHints.Node> devices) {
  private static final Logger LOG = LoggerFactory.getLogger(ContainerUses.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Copies the lists. */
  public ContainerUses {
    mounts = List.copyOf(mounts);
    devices = List.copyOf(devices);
  }

  /** Whether there is nothing to look up. */
  public boolean isEmpty() {
    return mounts.isEmpty() && devices.isEmpty();
  }

  /** The uses of the container of a verbose {@code response}; never fails. */
  public static ContainerUses of(ContainerStatusResponse response) {
    String name = response.getStatus().getMetadata().getName();
    return runtimeSpec(name, response.getInfoMap().get(SandboxInfo.KEY))
        .map(ContainerUses::fromSpec)
        .orElseGet(() -> new ContainerUses(statusMounts(response), List.of()));
  }

  private static Optional<JsonNode> runtimeSpec(
      String name, @org.jspecify.annotations.Nullable String info) {
    if (info == null || info.isBlank()) {
      return Optional.empty();
    }
    try {
      JsonNode spec = JSON.readTree(info).path("runtimeSpec");
      return spec.isObject() ? Optional.of(spec) : Optional.empty();
    } catch (JsonProcessingException e) {
      LOG.warn(
          "container {}: cannot read the verbose status info, its devices give no hints: {}",
          name,
          e.getOriginalMessage());
      return Optional.empty();
    }
  }

  private static List<DeviceHints.Use> statusMounts(ContainerStatusResponse response) {
    List<DeviceHints.Use> uses = new ArrayList<>();
    for (Mount m : response.getStatus().getMountsList()) {
      uses.add(new DeviceHints.Use(m.getHostPath(), m.getContainerPath(), m.getReadonly()));
    }
    return uses;
  }

  private static ContainerUses fromSpec(JsonNode spec) {
    List<DeviceHints.Use> mounts = new ArrayList<>();
    for (JsonNode m : spec.path("mounts")) {
      String source = m.path("source").asText("");
      List<String> options = texts(m.path("options"));
      boolean bind =
          m.path("type").asText("").equals("bind")
              || options.contains("bind")
              || options.contains("rbind");
      if (bind && source.startsWith("/")) {
        mounts.add(
            new DeviceHints.Use(source, m.path("destination").asText(""), options.contains("ro")));
      }
    }
    JsonNode rules = spec.path("linux").path("resources").path("devices");
    List<DeviceHints.Node> devices = new ArrayList<>();
    for (JsonNode d : spec.path("linux").path("devices")) {
      String type = d.path("type").asText("");
      if ((type.equals("c") || type.equals("u") || type.equals("b"))
          && d.path("major").canConvertToLong()
          && d.path("minor").canConvertToLong()) {
        long major = d.path("major").asLong();
        long minor = d.path("minor").asLong();
        boolean block = type.equals("b");
        devices.add(
            new DeviceHints.Node(
                d.path("path").asText(""),
                block,
                major,
                minor,
                !writable(rules, block, major, minor)));
      }
    }
    return new ContainerUses(mounts, devices);
  }

  /**
   * Whether the device cgroup {@code rules} let the container write the device: the last rule that
   * matches it and names {@code w} (no access: all) decides; no such rule: writable.
   */
  static boolean writable(JsonNode rules, boolean block, long major, long minor) {
    boolean writable = true;
    for (JsonNode r : rules) {
      String type = r.path("type").asText("a");
      String access = r.path("access").asText("rwm");
      boolean matches =
          (type.equals("a") || type.equals(block ? "b" : "c"))
              && (!r.path("major").canConvertToLong() || r.path("major").asLong() == major)
              && (!r.path("minor").canConvertToLong() || r.path("minor").asLong() == minor);
      if (matches && (access.isEmpty() || access.contains("w"))) {
        writable = r.path("allow").asBoolean(false);
      }
    }
    return writable;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText("")));
    return out;
  }
}
