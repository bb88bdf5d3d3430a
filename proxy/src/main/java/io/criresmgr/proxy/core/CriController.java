package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.cache.Assignment;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.LinuxResources;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.Controller;
import io.criresmgr.proxy.core.cri.LinuxResourcesCodec;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Enforces decisions through the CRI (controller {@code cri}, docs/controllers/README.md): writes a
 * new container's assignment into its CreateContainer request and sends UpdateContainerResources
 * for existing containers whose assignment changed. The runtime applies both to the container's
 * cgroups.
 */
public final class CriController implements Controller {
  /** The controller's name in {@code resource-manager.control.Controllers}. */
  public static final String NAME = "cri";

  private final RuntimeUpdates updates;

  /**
   * The last update's resources and what they were made of: the containers of one pool share their
   * assignment and mostly their requests, and an exclusive grant or a balloon's resize re-assigns
   * hundreds of them in one decision (docs/benchmarks.md, "Issue 20: re-assigned containers").
   */
  private volatile @Nullable Made last;

  private record Made(
      Assignment assignment, LinuxResources requested, LinuxContainerResources linux) {}

  /** Sends updates through {@code updates}. */
  public CriController(RuntimeUpdates updates) {
    this.updates = Objects.requireNonNull(updates, "updates");
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public void preCreate(Container container, ContainerEdits edits) {
    // Policy none decides nothing: leave kubelet's request exactly as it was.
    if (!container.assignment().equals(Assignment.NONE)) {
      edits.setLinuxResources(container.effectiveResources());
    }
  }

  @Override
  public void postUpdate(Container container) {
    if (container.id().isEmpty() || !container.pending().contains(NAME)) {
      return;
    }
    LinuxContainerResources linux = resources(container);
    // A failed send is logged and reported to the failure listener by updates; the step's sends
    // are awaited through takeStepSends.
    var unused = updates.send(container.cacheId(), container.id(), linux, container.assignment());
  }

  /** The update's resources of {@code container}: its effective resources alone. */
  private LinuxContainerResources resources(Container container) {
    Made made = last;
    if (made != null
        && made.assignment().equals(container.assignment())
        && made.requested().equals(container.requested())) {
      return made.linux();
    }
    LinuxContainerResources linux =
        LinuxResourcesCodec.applyTo(
                LinuxContainerResources.getDefaultInstance(), container.effectiveResources())
            .build();
    last = new Made(container.assignment(), container.requested(), linux);
    return linux;
  }
}
