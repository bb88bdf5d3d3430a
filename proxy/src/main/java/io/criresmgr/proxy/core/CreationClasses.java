package io.criresmgr.proxy.core;

import io.criresmgr.controllers.ContainerEdits;
import java.util.Objects;

/**
 * The RDT and block I/O classes controllers want the runtime to give a container at its creation
 * ({@link ContainerEdits#rdtClass()}, {@link ContainerEdits#blockIoClass()}); only NRI mode
 * delivers them (docs/nri.md, "Sending RDT and block I/O classes";
 * docs/adr/0016-nri-classes-opt-in.md).
 *
 * @param podSandboxId the pod of the CreateContainer request
 * @param containerName the container's name in that request
 * @param rdtClass the RDT class; empty: none
 * @param blockIoClass the block I/O class; empty: none
 */
public record CreationClasses(
    String podSandboxId, String containerName, String rdtClass, String blockIoClass) {
  /** Checks for nulls. */
  public CreationClasses {
    Objects.requireNonNull(podSandboxId, "podSandboxId");
    Objects.requireNonNull(containerName, "containerName");
    Objects.requireNonNull(rdtClass, "rdtClass");
    Objects.requireNonNull(blockIoClass, "blockIoClass");
  }

  /** The classes of {@code edits} for container {@code containerName} of pod {@code pod}. */
  static CreationClasses of(String pod, String containerName, ContainerEdits edits) {
    return new CreationClasses(
        pod, containerName, edits.rdtClass().orElse(""), edits.blockIoClass().orElse(""));
  }

  /** Whether neither class is set. */
  public boolean isEmpty() {
    return rdtClass.isEmpty() && blockIoClass.isEmpty();
  }
}
