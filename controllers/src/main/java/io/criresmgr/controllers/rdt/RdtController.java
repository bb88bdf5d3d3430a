package io.criresmgr.controllers.rdt;

import com.fasterxml.jackson.databind.node.NullNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.ContainerLoop;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.NodeView;
import io.criresmgr.controllers.cgroups.CgroupLayout;
import io.criresmgr.controllers.cgroups.ContainerCgroups;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * cri-resmgr's {@code rdt} controller: applies the {@code rdt} section to resctrl ({@code
 * <host-root>/sys/fs/resctrl}) and moves each container's tasks into the resctrl group of its RDT
 * class after start and after updates. Confined to the pipeline thread.
 */
public final class RdtController implements Controller {
  /** The controller's name in {@code resource-manager.control.Controllers}. */
  public static final String NAME = "rdt";

  /** The {@link RdtClassChoice#source} of a class the policy assigned. */
  static final String POLICY_SOURCE = "policy assignment";

  private static final Logger LOG = LoggerFactory.getLogger(RdtController.class);

  private @Nullable Running running;

  /** What a started controller works with. */
  private record Running(
      Resctrl resctrl,
      RdtConfig config,
      Set<String> discovered,
      CgroupLayout layout,
      NodeView node) {
    Running {
      Objects.requireNonNull(resctrl, "resctrl");
      discovered = Set.copyOf(discovered);
    }

    /**
     * The groups containers are assigned to: Discovery mode uses the existing groups as they are.
     */
    ResctrlGroups groups() {
      return config.mode() == RdtMode.DISCOVERY
          ? new ResctrlGroups(resctrl.root(), "")
          : new ResctrlGroups(resctrl.root());
    }
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Without an {@code rdt} section the controller is inert: it looks at nothing and moves no task,
   * so the runtime's own RDT settings stay and hosts without resctrl log nothing. With one it
   * discovers resctrl under the host root, applies the configuration and assigns every active
   * container to its class.
   *
   * @throws ControllerException if resctrl is not mounted, the cgroups cannot be found, or the
   *     configuration does not fit the hardware
   */
  @Override
  public void start(ControllerContext context) {
    running = null;
    if (context.section(RdtConfig.SECTION).isEmpty()) {
      LOG.debug("no rdt section: RDT control is off");
      return;
    }
    Path root = context.hostRootOrSlash().resolve("sys/fs/resctrl");
    Resctrl resctrl = Resctrl.discover(root);
    CgroupLayout layout = CgroupLayout.detect(context.cgroupMountOrDefault());
    RdtConfig config = config(context);
    running = new Running(resctrl, config, apply(resctrl, config), layout, context.node());
    LOG.info("RDT in {} mode on {}", config.mode().label(), root);
    assignAll();
  }

  /**
   * Applies a changed {@code rdt} section and reassigns every active container. A section given to
   * an inert controller starts it; a removed one drops the groups this daemon made (their tasks
   * fall back to the root group) and makes it inert.
   */
  @Override
  public void reconfigure(ControllerContext context) {
    Running r = running;
    if (r == null) {
      start(context);
      return;
    }
    if (context.section(RdtConfig.SECTION).isEmpty()) {
      new ResctrlGroups(r.resctrl().root()).removeExcept(Set.of());
      running = null;
      LOG.info("rdt section removed: RDT control is off");
      return;
    }
    RdtConfig config = config(context);
    if (config.equals(r.config()) && context.node() == r.node()) {
      return;
    }
    running =
        new Running(r.resctrl(), config, apply(r.resctrl(), config), r.layout(), context.node());
    assignAll();
  }

  @Override
  public void stop() {
    running = null;
  }

  /** Moves the new container's tasks into its class. */
  @Override
  public void postStart(Container container) {
    if (running != null) {
      assign(container);
    }
  }

  /** Moves the container's tasks again if its assignment changed for this controller. */
  @Override
  public void postUpdate(Container container) {
    if (running != null && container.pending().contains(NAME)) {
      assign(container);
    }
  }

  private static RdtConfig config(ControllerContext context) {
    return RdtConfig.parse(context.section(RdtConfig.SECTION).orElse(NullNode.getInstance()));
  }

  /**
   * Brings resctrl in line with {@code config} and returns the classes Discovery mode found. The
   * schemata are computed before anything is written, so an impossible configuration changes
   * nothing.
   */
  private static Set<String> apply(Resctrl resctrl, RdtConfig config) {
    ResctrlGroups own = new ResctrlGroups(resctrl.root());
    if (config.mode() != RdtMode.FULL) {
      own.removeExcept(Set.of());
      return config.mode() == RdtMode.DISCOVERY
          ? new ResctrlGroups(resctrl.root(), "").existing()
          : Set.of();
    }
    Map<String, List<String>> schemata = Schemata.of(config, resctrl);
    own.apply(schemata);
    own.removeExcept(schemata.keySet());
    return Set.of();
  }

  /**
   * Assigns every active container; one container's failure is logged and does not stop the rest.
   */
  private void assignAll() {
    ContainerLoop.applyToEach(
        started().node().activeContainers(),
        this::assign,
        (c, e) -> LOG.warn("RDT class of {} not applied: {}", c.cacheId(), e.getMessage()));
  }

  private void assign(Container c) {
    Running r = started();
    if (c.id().isEmpty()) {
      return; // not created yet: nothing runs
    }
    Pod pod =
        r.node()
            .pod(c.podId())
            .orElseThrow(
                () ->
                    new RdtException(
                        "pod " + c.podId() + " of container " + c.cacheId() + " is not cached"));
    String cls = choice(c, pod).resolve(r.config(), r.discovered());
    Path cgroup = ContainerCgroups.find(r.layout(), pod.cgroupParent(), c.id()).dir("cpu");
    r.groups().assign(cls, ResctrlGroups.pids(cgroup));
    LOG.debug("{}: RDT class \"{}\"", c.cacheId(), cls);
  }

  /**
   * The class of the container's adjustment if it sets one, else the policy's if it assigned one,
   * else the container's annotations or QoS class.
   */
  static RdtClassChoice choice(Container c, Pod pod) {
    String adjusted = c.adjustment().rdtClass();
    if (!adjusted.isEmpty()) {
      return new RdtClassChoice(adjusted, "adjustment " + c.adjustment().name());
    }
    String assigned = c.assignment().rdtClass();
    return assigned.isEmpty()
        ? RdtClassChoice.of(pod.annotations(), c.name(), c.qosClass())
        : new RdtClassChoice(assigned, POLICY_SOURCE);
  }

  private Running started() {
    Running r = running;
    if (r == null) {
      throw new IllegalStateException("rdt controller is not started");
    }
    return r;
  }
}
