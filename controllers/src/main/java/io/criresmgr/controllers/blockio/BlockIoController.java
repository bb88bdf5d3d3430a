package io.criresmgr.controllers.blockio;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.cache.Container;
import io.criresmgr.cache.Pod;
import io.criresmgr.controllers.ClassBasedController;
import io.criresmgr.controllers.ContainerEdits;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.KernelFiles;
import io.criresmgr.controllers.cgroups.CgroupLayout;
import io.criresmgr.controllers.cgroups.ContainerCgroup;
import io.criresmgr.controllers.cgroups.ContainerCgroups;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * cri-resmgr's {@code blockio} controller: resolves the {@code blockio} classes against the host's
 * devices and writes a container's class into its block I/O cgroup files after start and after
 * updates: cgroup v1 {@code blkio.*} when a blkio hierarchy is mounted, else cgroup v2 {@code
 * io.weight} and {@code io.max} when the v2 hierarchy has the io controller. Confined to the
 * pipeline thread.
 */
public final class BlockIoController
    extends ClassBasedController<BlockIoConfig, BlockIoController.Running> {
  /** The controller's name in {@code resource-manager.control.Controllers}. */
  public static final String NAME = "blockio";

  /** The {@link BlockIoClassChoice#source} of a class the policy assigned. */
  static final String POLICY_SOURCE = "policy assignment";

  private static final Logger LOG = LoggerFactory.getLogger(BlockIoController.class);

  /** A controller that is inert until it gets a {@code blockio} section. */
  public BlockIoController() {
    super(NAME, BlockIoConfig.SECTION, "block I/O");
  }

  /**
   * What a started controller works with.
   *
   * @param v2 whether the files are cgroup v2's (else v1's blkio)
   */
  record Running(
      Path hostRoot,
      ResolvedClasses classes,
      CgroupLayout layout,
      boolean v2,
      Set<String> nriClasses) {
    Running {
      Objects.requireNonNull(classes, "classes");
      nriClasses = Set.copyOf(nriClasses);
    }
  }

  @Override
  protected BlockIoConfig parse(JsonNode section) {
    return BlockIoConfig.parse(section);
  }

  /**
   * Finds the block I/O cgroup controller and resolves the classes.
   *
   * @throws ControllerException if no blkio (v1) or io (v2) controller is mounted
   */
  @Override
  protected Running open(ControllerContext context, BlockIoConfig config) {
    CgroupLayout layout = CgroupLayout.detect(context.cgroupMountOrDefault());
    boolean v2 = !layout.v1Hierarchies().containsKey("blkio");
    if (v2 && !(layout.unifiedRoot().isPresent() && layout.unifiedControllers().contains("io"))) {
      throw new BlockIoException(
          "no block I/O cgroup controller under "
              + layout.root()
              + ": neither a blkio hierarchy (cgroup v1) nor io in the v2 hierarchy's"
              + " cgroup.controllers");
    }
    Path hostRoot = context.hostRootOrSlash();
    return new Running(hostRoot, resolve(hostRoot, config), layout, v2, config.nriClasses());
  }

  /** Resolves the changed classes against the devices again. */
  @Override
  protected Running reopen(Running r, BlockIoConfig config) {
    return new Running(
        r.hostRoot(), resolve(r.hostRoot(), config), r.layout(), r.v2(), config.nriClasses());
  }

  @Override
  protected ControllerException error(String message) {
    return new BlockIoException(message);
  }

  /**
   * With {@code NriClasses}: the container's class, chosen as {@link #apply} does, for the runtime
   * to apply at creation (NRI's {@code blockio_class}) if it is one of {@code NriClasses}, the
   * classes the runtime has too (the runtime fails a creation whose class it does not know). Any
   * other choice (a class not listed or not configured, a QoS default without its class) sends
   * nothing and is left to {@link #apply} after the start, as without the option.
   */
  @Override
  protected void preCreate(Running r, Container c, Pod pod, ContainerEdits edits) {
    if (r.nriClasses().isEmpty()) {
      return;
    }
    BlockIoClassChoice choice = choice(c, pod);
    if (!r.nriClasses().contains(choice.className())) {
      if (!choice.className().isEmpty() && r.classes().classes().containsKey(choice.className())) {
        LOG.debug(
            "{}: block I/O class \"{}\" is not in NriClasses: applied after the start",
            c.cacheId(),
            choice.className());
      }
      return;
    }
    edits.setBlockIoClass(choice.className());
  }

  /** Writes the container's class into its block I/O cgroup files. */
  @Override
  protected void apply(Running r, Container c, Pod pod) {
    BlockIoClassChoice choice = choice(c, pod);
    Optional<BlockIoParameters> p = choice.parameters(r.classes());
    if (p.isEmpty()) {
      return;
    }
    ContainerCgroup cg = ContainerCgroups.find(r.layout(), pod.cgroupParent(), c.id());
    if (!r.v2()) {
      Path dir = cg.dir("blkio");
      write(dir, v1Files(p.get(), dir));
      return;
    }
    Path dir = cg.unifiedDir().orElseThrow();
    V2Files files = v2Files(r, p.get(), dir);
    files.skipped().forEach(s -> warnSkipped(c, choice, s, dir));
    write(dir, files.files());
  }

  /** Resolves the devices once per configuration and logs what was skipped, once. */
  private static ResolvedClasses resolve(Path hostRoot, BlockIoConfig config) {
    ResolvedClasses classes = BlockIoClasses.resolve(config, new BlockDeviceResolver(hostRoot));
    classes.warnings().forEach(w -> LOG.warn("block I/O {}", w));
    return classes;
  }

  /** A device weight no file takes is never an error: runc drops it without a word. */
  private static void warnSkipped(
      Container c, BlockIoClassChoice choice, V2Files.SkippedWeight s, Path dir) {
    LOG.warn("block I/O of {}: {}", c.cacheId(), s.describe(choice.className(), dir));
  }

  /**
   * The class of the container's adjustment if it sets one, else the policy's if it assigned one,
   * else the container's annotations or QoS class.
   */
  static BlockIoClassChoice choice(Container c, Pod pod) {
    String adjusted = c.adjustment().blockIoClass();
    if (!adjusted.isEmpty()) {
      return new BlockIoClassChoice(adjusted, "adjustment " + c.adjustment().name());
    }
    String assigned = c.assignment().blockIoClass();
    return assigned.isEmpty()
        ? BlockIoClassChoice.of(pod.annotations(), c.name(), c.qosClass())
        : new BlockIoClassChoice(assigned, POLICY_SOURCE);
  }

  private static Map<String, List<String>> v1Files(BlockIoParameters p, Path dir) {
    try {
      V1WeightFiles names = V1WeightFiles.detect(dir);
      return BlockIoFiles.v1(p, names, BlockIoFiles.readCurrent(dir, BlockIoFiles.v1Files(names)));
    } catch (UncheckedIOException e) {
      throw new BlockIoException(e.getMessage() + ": " + e.getCause(), e);
    }
  }

  /** The v2 files, each device weight routed by the device's scheduler and iocost right now. */
  private static V2Files v2Files(Running r, BlockIoParameters p, Path dir) {
    try {
      Map<String, String> current = BlockIoFiles.readCurrent(dir, BlockIoFiles.V2_FILES);
      V2WeightRoutes routes =
          new V2WeightRoutes(r.hostRoot(), r.layout().unifiedRoot().orElseThrow());
      String bfq = current.get(BlockIoFiles.V2_BFQ_WEIGHT);
      return BlockIoFiles.v2(p, current, d -> routes.route(d, bfq));
    } catch (UncheckedIOException e) {
      throw new BlockIoException(e.getMessage() + ": " + e.getCause(), e);
    }
  }

  /**
   * One {@code write(2)} per line, as the kernel parses one setting per write; never creates. A
   * line the kernel refuses does not stop the others (a refused weight must not cost the container
   * its throttles); the failures are reported together afterwards.
   */
  private static void write(Path dir, Map<String, List<String>> files) {
    List<String> failed = new ArrayList<>();
    files.forEach(
        (name, lines) -> {
          Path file = dir.resolve(name);
          for (String line : lines) {
            try {
              KernelFiles.writeLine(file, line);
            } catch (IOException e) {
              failed.add("cannot write \"" + line + "\" to " + file + ": " + osError(e));
            }
          }
        });
    if (!failed.isEmpty()) {
      throw new BlockIoException(String.join("; ", failed));
    }
  }

  private static String osError(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "No such file or directory";
    }
    // the kernel's refusal comes as a plain IOException, e.g. "Operation not supported"
    return e instanceof FileSystemException f && f.getReason() != null
        ? f.getReason()
        : String.valueOf(e.getMessage());
  }
}
