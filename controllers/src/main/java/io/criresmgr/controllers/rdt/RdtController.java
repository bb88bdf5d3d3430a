package io.criresmgr.controllers.rdt;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.ClassBasedController;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.cgroups.CgroupLayout;
import io.criresmgr.controllers.cgroups.ContainerCgroups;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * cri-resmgr's {@code rdt} controller: applies the {@code rdt} section to resctrl ({@code
 * <host-root>/sys/fs/resctrl}) and moves each container's tasks into the resctrl group of its RDT
 * class after start and after updates. Confined to the pipeline thread.
 */
public final class RdtController extends ClassBasedController<RdtConfig, RdtController.Running> {
  /** The controller's name in {@code resource-manager.control.Controllers}. */
  public static final String NAME = "rdt";

  /** The {@link RdtClassChoice#source} of a class the policy assigned. */
  static final String POLICY_SOURCE = "policy assignment";

  private static final Logger LOG = LoggerFactory.getLogger(RdtController.class);

  /** A controller that is inert until it gets an {@code rdt} section. */
  public RdtController() {
    super(NAME, RdtConfig.SECTION, "RDT");
  }

  /** What a started controller works with. */
  record Running(Resctrl resctrl, RdtConfig config, Set<String> discovered, CgroupLayout layout) {
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
  protected RdtConfig parse(JsonNode section) {
    return RdtConfig.parse(section);
  }

  /**
   * Discovers resctrl under the host root and applies the configuration.
   *
   * @throws ControllerException if resctrl is not mounted, the cgroups cannot be found, or the
   *     configuration does not fit the hardware
   */
  @Override
  protected Running open(ControllerContext context, RdtConfig config) {
    Path root = context.hostRootOrSlash().resolve("sys/fs/resctrl");
    Resctrl resctrl = Resctrl.discover(root);
    CgroupLayout layout = CgroupLayout.detect(context.cgroupMountOrDefault());
    Running running = new Running(resctrl, config, apply(resctrl, config), layout);
    LOG.info("RDT in {} mode on {}", config.mode().label(), root);
    return running;
  }

  @Override
  protected Running reopen(Running r, RdtConfig config) {
    return new Running(r.resctrl(), config, apply(r.resctrl(), config), r.layout());
  }

  /** Drops the groups this daemon made; their tasks fall back to the root group. */
  @Override
  protected void close(Running r) {
    new ResctrlGroups(r.resctrl().root()).removeExcept(Set.of());
  }

  @Override
  protected ControllerException error(String message) {
    return new RdtException(message);
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
   * With {@code options.nriClasses}: the class, resolved as {@link #apply} does, for the runtime to
   * put the container in at creation (NRI's {@code rdt_class}); the root class is never sent. In
   * Discovery mode a resolved class is an existing group named exactly like it, the resctrl group
   * the runtime's {@code closID} names.
   */
  @Override
  protected void preCreate(Running r, Container c, Pod pod, ContainerEdits edits) {
    if (!r.config().nriClasses()) {
      return;
    }
    String cls = choice(c, pod).resolve(r.config(), r.discovered());
    if (cls.isEmpty()) {
      return;
    }
    // Discovery lists the groups when the controller opens; one removed since would make runc
    // refuse the container (its closID names no directory): then the class is left to the
    // after-start apply, which falls back as without the option.
    Path group = new ResctrlGroups(r.resctrl().root(), "").group(cls);
    if (!Files.isDirectory(group)) {
      LOG.warn(
          "{}: RDT class \"{}\" is not sent to the runtime: its group {} no longer exists",
          c.cacheId(),
          cls,
          group);
      return;
    }
    edits.setRdtClass(cls);
  }

  /** Moves the container's tasks into the resctrl group of its class. */
  @Override
  protected void apply(Running r, Container c, Pod pod) {
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
}
