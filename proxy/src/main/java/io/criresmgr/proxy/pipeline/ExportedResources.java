package io.criresmgr.proxy.pipeline;

import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.MountPropagation;
import io.criresmgr.cache.Container;
import io.criresmgr.policy.ResourceExport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exported resource data (cri-resmgr's container data directories): for every container the
 * pipeline creates, the file {@code <relay-dir>/containers/<pod uid>-<name>/resources.sh} with the
 * policy's {@link ResourceExport} variables as {@code KEY="value"} lines, its directory mounted
 * read-only at {@code /.cri-resmgr} in the container. The directory is mounted, not the file, and
 * the file is replaced by a rename, so a reader in the container sees the old or the new file,
 * never a partial one. Rewritten at the end of every step that may have changed a container's
 * assignment, removed with the container. A file that cannot be written is logged and never fails a
 * request (docs/exported-resources.md). Confined to the pipeline thread.
 */
final class ExportedResources {
  /** The mount point in the container. */
  static final String CONTAINER_PATH = "/.cri-resmgr";

  /** The file name. */
  static final String FILE = "resources.sh";

  /** The directory of the container directories, in the relay directory. */
  static final String DIRECTORY = "containers";

  private static final Logger LOG = LoggerFactory.getLogger(ExportedResources.class);
  private static final String TEMP = "." + FILE + ".tmp";
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Set<PosixFilePermission> PRIVATE =
      PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwxr-xr-x");
  private static final Set<PosixFilePermission> READABLE =
      PosixFilePermissions.fromString("rw-r--r--");

  /** Exports nothing (no relay directory). */
  static final ExportedResources NONE = new ExportedResources(Optional.empty());

  private final Optional<Path> root;
  private final Map<String, String> written = new HashMap<>();
  private final Set<String> dirty = new LinkedHashSet<>();

  private ExportedResources(Optional<Path> root) {
    this.root = root;
  }

  /** Container directories under {@code relayDir}/containers. */
  static ExportedResources in(Path relayDir) {
    return new ExportedResources(Optional.of(relayDir.resolve(DIRECTORY)));
  }

  /** Marks {@code cacheId}'s data for a check at the end of the step. */
  void changed(String cacheId) {
    if (root.isPresent()) {
      dirty.add(cacheId);
    }
  }

  /** Writes or removes the data of every container marked since the last flush. */
  void flush(Section s) {
    if (dirty.isEmpty()) {
      return;
    }
    List<String> ids = new ArrayList<>(dirty);
    dirty.clear();
    sync(s, ids);
  }

  /**
   * Writes the data of {@code cacheId}, a container being created, now: its directory must exist
   * before the runtime mounts it. The mount to add to its request; empty if nothing could be
   * written (the container is then created without it).
   */
  Optional<Mount> prepare(Section s, String cacheId) {
    dirty.remove(cacheId);
    sync(s, List.of(cacheId));
    return root.filter(r -> written.containsKey(cacheId))
        .map(
            r ->
                Mount.newBuilder()
                    .setContainerPath(CONTAINER_PATH)
                    .setHostPath(r.resolve(directoryName(cacheId)).toString())
                    .setReadonly(true)
                    // Private: a rename inside the mounted directory needs no propagation, and
                    // runtimes refuse rslave from a mount that is not shared
                    // (docs/exported-resources.md).
                    .setPropagation(MountPropagation.PROPAGATION_PRIVATE)
                    .build());
  }

  /**
   * At start-up, after the reconciliation with the runtime: removes directories of containers the
   * cache no longer knows, and marks every cached container, so its file is written afresh.
   */
  void reconcile(Section s) {
    if (root.isEmpty() || !Files.isDirectory(root.get(), LinkOption.NOFOLLOW_LINKS)) {
      root.ifPresent(r -> s.cache().containers().forEach(c -> changed(c.cacheId())));
      return;
    }
    Set<String> known = new HashSet<>();
    for (Container c : s.cache().containers()) {
      known.add(directoryName(c.cacheId()));
      changed(c.cacheId());
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(root.get())) {
      for (Path entry : entries) {
        if (!known.contains(entry.getFileName().toString())) {
          LOG.info("removing the exported resources of gone container {}", entry.getFileName());
          deleteTree(entry);
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot clean up exported resources in {}: {}", root.get(), e.toString());
    }
  }

  private void sync(Section s, List<String> ids) {
    List<Container> active = new ArrayList<>();
    for (String id : ids) {
      Optional<Container> c = s.cache().container(id);
      if (c.isEmpty()) {
        delete(id);
      } else if (c.get().state().isActive()) {
        active.add(c.get());
      }
    }
    if (active.isEmpty()) {
      return;
    }
    Map<String, Map<String, String>> data = data(s, active);
    for (Container c : active) {
      write(c.cacheId(), render(c.cacheId(), data.getOrDefault(c.cacheId(), Map.of())));
    }
  }

  private static Map<String, Map<String, String>> data(Section s, List<Container> containers) {
    if (!(s.policy().policy() instanceof ResourceExport export)) {
      return Map.of();
    }
    try {
      return export.exportedResources(containers, s.cache());
    } catch (RuntimeException e) {
      LOG.warn("policy {} cannot export resource data: {}", s.policy().name(), e.toString());
      return Map.of();
    }
  }

  /** {@code KEY="value"} lines sorted by name, as cri-resmgr wrote them. */
  static String render(String cacheId, Map<String, String> data) {
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, String> e : new TreeMap<>(data).entrySet()) {
      if (!NAME.matcher(e.getKey()).matches()) {
        LOG.warn(
            "container {}: not exporting \"{}\", not a shell variable name", cacheId, e.getKey());
        continue;
      }
      out.append(e.getKey()).append("=\"").append(quote(e.getValue())).append("\"\n");
    }
    return out.toString();
  }

  private static String quote(String value) {
    return value.replaceAll("([\\\\\"$`])", "\\\\$1");
  }

  /** The directory name of a container: its cache id with the first ':' as '-'. */
  static String directoryName(String cacheId) {
    return cacheId.replaceFirst(":", "-");
  }

  private static boolean validName(String name) {
    return !name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0;
  }

  private void write(String cacheId, String content) {
    if (content.equals(written.get(cacheId))) {
      return;
    }
    String name = directoryName(cacheId);
    Path dir = root.orElseThrow().resolve(name);
    if (!validName(name)) {
      LOG.warn("container {}: no exported resources, \"{}\" is no directory name", cacheId, name);
      return;
    }
    try {
      createDirectory(root.orElseThrow(), PRIVATE);
      createDirectory(dir, DIR);
      Path temp = dir.resolve(TEMP);
      Files.deleteIfExists(temp);
      Files.writeString(
          temp,
          content,
          StandardCharsets.UTF_8,
          StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      Files.setPosixFilePermissions(temp, READABLE);
      Files.move(temp, dir.resolve(FILE), StandardCopyOption.ATOMIC_MOVE);
      written.put(cacheId, content);
    } catch (IOException | UnsupportedOperationException e) {
      written.remove(cacheId);
      LOG.warn(
          "cannot export the resources of container {} to {}: {} (a new container is created"
              + " without /.cri-resmgr, a running one keeps its last file)",
          cacheId,
          dir.resolve(FILE),
          e.toString());
    }
  }

  private static void createDirectory(Path dir, Set<PosixFilePermission> mode) throws IOException {
    if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    try {
      Files.createDirectory(dir);
    } catch (FileAlreadyExistsException e) {
      throw new IOException(dir + " exists and is not a directory", e);
    }
    Files.setPosixFilePermissions(dir, mode);
  }

  private void delete(String cacheId) {
    written.remove(cacheId);
    String name = directoryName(cacheId);
    if (validName(name)) {
      try {
        deleteTree(root.orElseThrow().resolve(name));
      } catch (IOException e) {
        LOG.warn("cannot remove the exported resources of container {}: {}", cacheId, e.toString());
      }
    }
  }

  /** Deletes {@code path} and, if it is a directory (not a link to one), what it holds. */
  private static void deleteTree(Path path) throws IOException {
    if (Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS)) {
      try (DirectoryStream<Path> entries = Files.newDirectoryStream(path)) {
        for (Path entry : entries) {
          deleteTree(entry);
        }
      }
    }
    Files.deleteIfExists(path);
  }
}
