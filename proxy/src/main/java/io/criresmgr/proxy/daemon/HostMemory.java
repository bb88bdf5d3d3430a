package io.criresmgr.proxy.daemon;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node's memory capacity as kubelet sees it (cAdvisor's {@code MemTotal} of {@code
 * /proc/meminfo}), which kubelet divides a Burstable container's memory request by to get its OOM
 * score adjustment (docs/webhook.md, "Without the webhook").
 */
final class HostMemory {
  private static final Logger LOG = LoggerFactory.getLogger(HostMemory.class);

  private static final Pattern PROC = Pattern.compile("(?m)^MemTotal:\\s+(\\d{1,15})\\s*kB\\s*$");
  private static final Pattern NODE =
      Pattern.compile("(?m)^Node\\s+\\d+\\s+MemTotal:\\s+(\\d{1,15})\\s*kB\\s*$");

  private HostMemory() {}

  /**
   * {@code MemTotal} of {@code <hostRoot>/proc/meminfo} in bytes; without that file, the sum of the
   * NUMA nodes' {@code MemTotal} below {@code <hostRoot>/sys/devices/system/node}; 0 (unknown: no
   * memory request is estimated) if neither can be read.
   */
  static long capacity(Path hostRoot) {
    Path root = hostRoot.toString().isEmpty() ? Path.of("/") : hostRoot;
    Path proc = root.resolve("proc/meminfo");
    OptionalLong total = Files.exists(proc) ? memTotal(proc, PROC) : nodeTotal(root);
    if (total.isEmpty()) {
      LOG.warn(
          "cannot read the node's memory capacity from {} or the NUMA nodes' meminfo: Burstable"
              + " containers without the webhook's annotation get no memory request",
          proc);
    }
    return total.orElse(0);
  }

  private static OptionalLong nodeTotal(Path root) {
    Path dir = root.resolve("sys/devices/system/node");
    if (!Files.isDirectory(dir)) {
      return OptionalLong.empty();
    }
    List<Path> nodes;
    try (Stream<Path> entries = Files.list(dir)) {
      nodes = entries.filter(p -> p.getFileName().toString().matches("node\\d+")).toList();
    } catch (IOException e) {
      return OptionalLong.empty();
    }
    long sum = 0;
    for (Path node : nodes) {
      OptionalLong bytes = memTotal(node.resolve("meminfo"), NODE);
      if (bytes.isEmpty()) {
        return OptionalLong.empty();
      }
      sum += bytes.getAsLong();
    }
    return sum > 0 ? OptionalLong.of(sum) : OptionalLong.empty();
  }

  private static OptionalLong memTotal(Path file, Pattern pattern) {
    try {
      Matcher m = pattern.matcher(Files.readString(file));
      return m.find() ? OptionalLong.of(Long.parseLong(m.group(1)) * 1024) : OptionalLong.empty();
    } catch (IOException e) {
      return OptionalLong.empty();
    }
  }
}
