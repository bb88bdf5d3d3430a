package io.criresmgr.controllers.cgroups;

import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.NodeView;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code cgroups} controller: writes a container's effective resources (kubelet's request with
 * the policy's decision applied) into its cgroup after it started and whenever its assignment
 * changes, and repairs drift of running containers when it starts. Writes are idempotent, so when
 * the runtime already applied the values (the usual case) nothing is written. Confined to the
 * pipeline thread.
 */
public final class CgroupsController implements Controller {
  /** The controller's name in {@code resource-manager.control.Controllers}. */
  public static final String NAME = "cgroups";

  private static final Logger LOG = LoggerFactory.getLogger(CgroupsController.class);

  private final CgroupWriter writer = new CgroupWriter();

  /** Resolved cgroups by runtime container id, so that re-pinning does not probe paths again. */
  private final Map<String, ContainerCgroup> cgroups = new HashMap<>();

  private @Nullable CgroupLayout layout;
  private NodeView node = NodeView.EMPTY;

  /** A stopped controller. */
  public CgroupsController() {}

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Detects the cgroup layout under the context's cgroup mount and brings every active container in
   * line; a container that cannot be brought in line is logged, not thrown.
   *
   * @throws ControllerException if there is no cgroup hierarchy under the mount
   */
  @Override
  public void start(ControllerContext context) {
    CgroupLayout detected = CgroupLayout.detect(context.cgroupMountOrDefault());
    layout = detected;
    node = context.node();
    cgroups.clear();
    bringInLine(detected);
  }

  /** Enforces every created or running container; logs each failure and a summary. */
  private void bringInLine(CgroupLayout detected) {
    int restored = 0;
    int failed = 0;
    for (Container c : node.activeContainers()) {
      if (c.id().isEmpty()
          || (c.state() != ContainerState.CREATED && c.state() != ContainerState.RUNNING)) {
        continue;
      }
      try {
        List<String> written = enforce(c);
        if (!written.isEmpty()) {
          restored++;
          LOG.info("restored {} in the cgroup of {}", written, c.cacheId());
        }
      } catch (ControllerException e) {
        failed++;
        LOG.warn("cannot bring the cgroup of {} in line: {}", c.cacheId(), e.getMessage());
      }
    }
    LOG.info(
        "cgroups controller started ({} under {}): {} container(s) restored, {} failed",
        detected.mode(),
        detected.root(),
        restored,
        failed);
  }

  /** The controller has no configuration section: only takes the context's node view. */
  @Override
  public void reconfigure(ControllerContext context) {
    node = context.node();
  }

  /** Forgets the layout, the node view and every resolved cgroup. */
  @Override
  public void stop() {
    layout = null;
    node = NodeView.EMPTY;
    cgroups.clear();
  }

  /** Writes the container's effective resources into its cgroup. */
  @Override
  public void postStart(Container container) {
    enforce(container);
  }

  /** Writes the container's effective resources if this controller has not enforced them yet. */
  @Override
  public void postUpdate(Container container) {
    if (container.pending().contains(NAME)) {
      enforce(container);
    }
  }

  /** Forgets the container's cgroup. */
  @Override
  public void postStop(Container container) {
    cgroups.remove(container.id());
  }

  /**
   * Writes what differs; returns what was written. A container that is not running may have no
   * cgroup yet: containerd creates it at StartContainer, after the assignment was made at
   * CreateContainer. Then nothing is written; postStart writes everything.
   */
  private List<String> enforce(Container c) {
    if (c.id().isEmpty()) {
      return List.of();
    }
    Optional<ContainerCgroup> found = cgroupOf(c);
    if (found.isEmpty() && c.state() != ContainerState.RUNNING) {
      LOG.debug("no cgroup yet for {} ({}): written when it starts", c.cacheId(), c.state());
      return List.of();
    }
    ContainerCgroup cgroup =
        found.orElseThrow(() -> ContainerCgroups.notFound(started(), cgroupParent(c), c.id()));
    try {
      List<String> written =
          CgroupResources.write(new ContainerCgroupWriter(cgroup, writer), c.effectiveResources());
      if (!written.isEmpty()) {
        LOG.debug("wrote {} in the cgroup of {}", written, c.cacheId());
      }
      return written;
    } catch (CgroupException e) {
      cgroups.remove(c.id()); // it may have moved or gone: probe again next time
      throw e;
    }
  }

  private Optional<ContainerCgroup> cgroupOf(Container c) {
    ContainerCgroup cached = cgroups.get(c.id());
    if (cached != null) {
      return Optional.of(cached);
    }
    Optional<ContainerCgroup> found = ContainerCgroups.lookup(started(), cgroupParent(c), c.id());
    found.ifPresent(cgroup -> cgroups.put(c.id(), cgroup));
    return found;
  }

  private String cgroupParent(Container c) {
    Pod pod =
        node.pod(c.podId())
            .orElseThrow(
                () ->
                    new CgroupException(
                        "cannot find the cgroup of container "
                            + c.id()
                            + ": its pod "
                            + c.podId()
                            + " is not known"));
    return pod.cgroupParent();
  }

  private CgroupLayout started() {
    CgroupLayout current = layout;
    if (current == null) {
      throw new IllegalStateException("the cgroups controller is not started");
    }
    return current;
  }
}
