package io.criresmgr.e2e;

import java.util.List;
import java.util.Objects;

/**
 * Everything a client can see of one run of {@link CrictlWorkflow}, minus what differs between runs
 * by nature (IDs, timestamps, names). Two runs of the same workflow against equivalent endpoints
 * must produce equal observations.
 *
 * @param calls every CRI call in order with its status code
 * @param version the Version reply
 * @param runtimeConditions the Status reply's conditions
 * @param e2eImages the {@code localhost/e2e/} images ListImages shows
 * @param podStates the pod's state after RunPodSandbox and after StopPodSandbox
 * @param containerStates the container's state after create, start and stop
 * @param exec ExecSync's result while the container runs
 * @param log the messages of the container's log file
 * @param cgroups the container's cgroup files after start
 * @param execAfterUpdate ExecSync's result after UpdateContainerResources
 * @param cgroupsAfterUpdate the container's cgroup files after UpdateContainerResources
 * @param exitCode the container's exit code after StopContainer
 * @param listedAfterRemove whether ListContainers or ListPodSandbox still show them
 * @param missingContainerError ContainerStatus of an unknown ID: status code and description
 */
record Observations(
    List<String> calls,
    String version,
    List<String> runtimeConditions,
    List<String> e2eImages,
    List<String> podStates,
    List<String> containerStates,
    String exec,
    List<String> log,
    CgroupValues cgroups,
    String execAfterUpdate,
    CgroupValues cgroupsAfterUpdate,
    int exitCode,
    boolean listedAfterRemove,
    String missingContainerError) {

  /** Copies the lists and checks for nulls. */
  Observations {
    calls = List.copyOf(calls);
    Objects.requireNonNull(version, "version");
    runtimeConditions = List.copyOf(runtimeConditions);
    e2eImages = List.copyOf(e2eImages);
    podStates = List.copyOf(podStates);
    containerStates = List.copyOf(containerStates);
    Objects.requireNonNull(exec, "exec");
    log = List.copyOf(log);
    Objects.requireNonNull(cgroups, "cgroups");
    Objects.requireNonNull(execAfterUpdate, "execAfterUpdate");
    Objects.requireNonNull(cgroupsAfterUpdate, "cgroupsAfterUpdate");
    Objects.requireNonNull(missingContainerError, "missingContainerError");
  }
}
