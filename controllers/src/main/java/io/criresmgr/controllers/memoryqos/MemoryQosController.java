package io.criresmgr.controllers.memoryqos;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.ContainerState;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ContainerLoop;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.NodeView;
import io.criresmgr.controllers.PodWarnings;
import io.criresmgr.controllers.cgroups.CgroupLayout;
import io.criresmgr.controllers.cgroups.CgroupWriter;
import io.criresmgr.controllers.cgroups.ContainerCgroupWriter;
import io.criresmgr.controllers.cgroups.ContainerCgroups;
import io.criresmgr.controllers.cgroups.UnifiedMemoryHost;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code memory-qos} controller: puts the files {@link MemoryQos} decides for a container into
 * its CreateContainer and UpdateContainerResources requests as CRI unified resources, and writes
 * them into its cgroup after it started (a no-op when the runtime applied them). Works on cgroup v2
 * with the memory controller only; without a {@code memory-qos} section it does nothing and the
 * annotations are ignored. See {@code docs/controllers/memory-qos.md}.
 */
public final class MemoryQosController implements Controller {
  /** The controller's name in {@code resource-manager.control.Controllers}. */
  public static final String NAME = "memory-qos";

  /** How host refusals name this controller. */
  private static final String WHO = "memory QoS";

  private static final Logger LOG = LoggerFactory.getLogger(MemoryQosController.class);

  /** The parsed section and the host's cgroups; present only while the controller acts. */
  private record Active(JsonNode section, MemoryQos qos, CgroupLayout layout) {}

  private final CgroupWriter writer;
  private NodeView node = NodeView.EMPTY;
  private @Nullable Active active;
  private @Nullable JsonNode ignoredSection;
  private final PodWarnings warned = new PodWarnings(LOG, "memory QoS of");

  /** A controller writing cgroup files with a fresh {@link CgroupWriter}. */
  public MemoryQosController() {
    this(new CgroupWriter());
  }

  /** A controller writing cgroup files with {@code writer}. */
  public MemoryQosController(CgroupWriter writer) {
    this.writer = Objects.requireNonNull(writer, "writer");
  }

  @Override
  public String name() {
    return NAME;
  }

  /**
   * Without a {@code memory-qos} section: does nothing. With one: parses it, checks that the host
   * has cgroup v2 with the memory controller and writes the decided files of every created or
   * running container.
   *
   * @throws ControllerException if the section is invalid or the host has no cgroup v2 memory
   *     controller (the message says which layout it found)
   */
  @Override
  public void start(ControllerContext context) {
    node = context.node();
    active = null;
    ignoredSection = null;
    Optional<JsonNode> section = context.section(MemoryQosConfig.SECTION);
    if (section.isEmpty()) {
      return;
    }
    MemoryQos qos = new MemoryQos(MemoryQosConfig.parse(section.get()));
    active =
        new Active(
            section.get(), qos, UnifiedMemoryHost.check(context.cgroupMountOrDefault(), WHO));
    applyToAll();
  }

  /**
   * Takes a changed {@code memory-qos} section: a removed one makes the controller inert, a new or
   * changed one applies to every created or running container. A section arriving on a host without
   * cgroup v2 memory is logged once and ignored, as a relaxed controller's start would be.
   *
   * @throws ControllerException if the section is invalid
   */
  @Override
  public void reconfigure(ControllerContext context) {
    node = context.node();
    JsonNode section = context.section(MemoryQosConfig.SECTION).orElse(null);
    JsonNode current = active == null ? ignoredSection : active.section();
    if (Objects.equals(section, current)) {
      return;
    }
    if (section == null) {
      LOG.info("memory-qos section removed: memory QoS annotations are ignored from now on");
      active = null;
      ignoredSection = null;
      return;
    }
    MemoryQos qos = new MemoryQos(MemoryQosConfig.parse(section));
    CgroupLayout layout = active != null ? active.layout() : hostLayout(context, section);
    if (layout != null) {
      active = new Active(section, qos, layout);
      applyToAll();
    }
  }

  private @Nullable CgroupLayout hostLayout(ControllerContext context, JsonNode section) {
    try {
      return UnifiedMemoryHost.check(context.cgroupMountOrDefault(), WHO);
    } catch (ControllerException e) {
      LOG.warn("memory-qos section ignored: {}", e.getMessage());
      ignoredSection = section;
      return null;
    }
  }

  @Override
  public void stop() {
    active = null;
    ignoredSection = null;
    node = NodeView.EMPTY;
    warned.clear();
  }

  /**
   * Claims the container's decided files in the CreateContainer request.
   *
   * @throws MemoryQosException if its annotations cannot be honoured
   * @throws ControllerException if another controller set one of the files to another value
   */
  @Override
  public void preCreate(Container container, ContainerEdits edits) {
    Active a = active;
    if (a == null) {
      return;
    }
    node.pod(container.podId())
        .map(pod -> decide(a, pod, container))
        .ifPresent(d -> edits.claimUnified(NAME, d.unified()));
  }

  /** As {@link #preCreate}, with the updated memory limit: {@code memory.high} follows it. */
  @Override
  public void preUpdate(Container container, ContainerEdits edits) {
    preCreate(container, edits);
  }

  /**
   * Writes the decided files into the started container's cgroup unless they already hold them.
   *
   * @throws ControllerException if a file cannot be written or the annotations cannot be honoured
   */
  @Override
  public void postStart(Container container) {
    Active a = active;
    if (a == null || container.id().isEmpty()) {
      return;
    }
    node.pod(container.podId()).ifPresent(pod -> write(a, pod, container));
  }

  /** Forgets the warnings logged for the container's pod once none of its containers is active. */
  @Override
  public void postStop(Container container) {
    if (node.activeContainers().stream().noneMatch(c -> c.podId().equals(container.podId()))) {
      warned.forget(container.podId());
    }
  }

  private void write(Active a, Pod pod, Container container) {
    MemoryQosDecision d = decide(a, pod, container);
    if (d.isEmpty()) {
      return;
    }
    ContainerCgroupWriter cgroup =
        new ContainerCgroupWriter(
            ContainerCgroups.find(a.layout(), pod.cgroupParent(), container.id()), writer);
    d.unified()
        .forEach(
            (file, value) -> {
              if (cgroup.setUnified(file, value)) {
                LOG.info("memory QoS of {}: wrote {}={}", container.cacheId(), file, value);
              }
            });
  }

  private MemoryQosDecision decide(Active a, Pod pod, Container container) {
    MemoryQosDecision d =
        a.qos()
            .decide(
                pod.annotations(),
                container.name(),
                container.effectiveResources().memoryLimitBytes());
    warned.warn(pod, d.warnings());
    return d;
  }

  /** Brings every created or running container in line; a failure for one is logged and skipped. */
  private void applyToAll() {
    List<Container> started =
        node.activeContainers().stream()
            .filter(c -> c.state() == ContainerState.CREATED || c.state() == ContainerState.RUNNING)
            .toList();
    ContainerLoop.applyToEach(
        started,
        this::postStart,
        (c, e) -> LOG.warn("memory QoS of {}: {}", c.cacheId(), e.getMessage()));
  }
}
