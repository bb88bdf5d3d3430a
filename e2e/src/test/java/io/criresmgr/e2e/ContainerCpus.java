package io.criresmgr.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Where a running container may run, read from the host as an operator would: the init process's
 * pid from containerd's verbose ContainerStatus, its cpuset cgroup from {@code /proc/<pid>/cgroup},
 * that cgroup's {@code cpuset.cpus}, and the process's own {@code Cpus_allowed_list}.
 */
final class ContainerCpus {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path proc;
  private final Path cgroupRoot;

  /**
   * Reads {@code /proc}-like files below {@code proc}, cgroup v1 hierarchies below {@code root}.
   */
  ContainerCpus(Path proc, Path cgroupRoot) {
    this.proc = Objects.requireNonNull(proc, "proc");
    this.cgroupRoot = Objects.requireNonNull(cgroupRoot, "cgroupRoot");
  }

  /**
   * The two views of one process's CPUs.
   *
   * @param cgroup the path of its cpuset cgroup (as in {@code /proc/<pid>/cgroup})
   * @param cgroupCpus that cgroup's {@code cpuset.cpus}
   * @param allowedCpus {@code Cpus_allowed_list} of the process
   */
  record Placement(String cgroup, String cgroupCpus, String allowedCpus) {}

  /** The placement of process {@code pid}. */
  Placement of(long pid) throws IOException {
    String cgroup = cpusetCgroup(read(proc.resolve(pid + "/cgroup")));
    String relative = cgroup.startsWith("/") ? cgroup.substring(1) : cgroup;
    String cpus = read(cgroupRoot.resolve("cpuset").resolve(relative).resolve("cpuset.cpus"));
    return new Placement(cgroup, cpus.trim(), allowedCpus(read(proc.resolve(pid + "/status"))));
  }

  /** The init pid in containerd's verbose ContainerStatus {@code info} entry. */
  static long initPid(String verboseInfo) throws IOException {
    JsonNode pid = JSON.readTree(verboseInfo).path("pid");
    if (!pid.canConvertToLong() || pid.asLong() <= 0) {
      throw new IOException("no pid in the container's verbose info: " + verboseInfo);
    }
    return pid.asLong();
  }

  /** The path of the cpuset hierarchy in a {@code /proc/<pid>/cgroup} text (cgroup v1). */
  static String cpusetCgroup(String procCgroup) throws IOException {
    for (String line : procCgroup.lines().toList()) {
      String[] fields = line.split(":", 3);
      if (fields.length == 3 && List.of(fields[1].split(",", -1)).contains("cpuset")) {
        return fields[2];
      }
    }
    throw new IOException("no cpuset hierarchy in:\n" + procCgroup);
  }

  /** The path in the unified (v2) hierarchy, the {@code 0::} line of {@code /proc/<pid>/cgroup}. */
  static String unifiedCgroup(String procCgroup) throws IOException {
    for (String line : procCgroup.lines().toList()) {
      if (line.startsWith("0::")) {
        return line.substring(3).trim();
      }
    }
    throw new IOException("no unified (0::) cgroup in:\n" + procCgroup);
  }

  /** {@code Cpus_allowed_list} of a {@code /proc/<pid>/status} text. */
  static String allowedCpus(String procStatus) throws IOException {
    for (String line : procStatus.lines().toList()) {
      if (line.startsWith("Cpus_allowed_list:")) {
        return line.substring("Cpus_allowed_list:".length()).trim();
      }
    }
    throw new IOException("no Cpus_allowed_list in the process status");
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file, StandardCharsets.UTF_8);
  }
}
