package io.criresmgr.proxy.core;

import io.criresmgr.api.runtime.v1.Mount;
import io.criresmgr.api.runtime.v1.MountPropagation;
import io.criresmgr.cache.Container;
import io.criresmgr.policy.ResourceExport;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.function.BiConsumer;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Exported resource data (cri-resmgr's container data directories): for every container the
 * pipeline creates, the file {@code <relay-dir>/containers/<pod uid>-<name>/resources.sh} with the
 * policy's {@link ResourceExport} variables as {@code KEY="value"} lines, its directory mounted
 * read-only at {@code /.cri-resmgr} in the container. The directory is mounted, not the file, and
 * the file is replaced by a rename, so a reader in the container sees the old or the new file,
 * never a partial one. A container being created gets its directory before the runtime call and its
 * file while the runtime creates it, before the create is answered; the files of the other
 * containers a step changed are rewritten just after it, off the pipeline thread ({@link
 * ExportFiles}), and removed with their container. A file that cannot be written is logged and
 * never fails a request (docs/exported-resources.md). Confined to the pipeline, except {@link
 * #writePending}.
 */
final class ExportedResources implements AutoCloseable {
  /** The mount point in the container. */
  static final String CONTAINER_PATH = "/.cri-resmgr";

  /** The file name. */
  static final String FILE = ExportFiles.FILE;

  /** The directory of the container directories, in the relay directory. */
  static final String DIRECTORY = "containers";

  private static final Logger LOG = LoggerFactory.getLogger(ExportedResources.class);
  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  /** Exports nothing (no relay directory). */
  static final ExportedResources NONE = new ExportedResources(Optional.empty());

  private final Optional<Path> root;
  private final Optional<ExportFiles> files;

  /** By directory: the content last handed to the files; a failed background write drops it. */
  private final Map<String, String> submitted = new ConcurrentHashMap<>();

  /**
   * The containers marked since the last flush, in order, each once: {@link Marked#flush} says
   * whether it is in the list already, so marking adds no set entry per container and step
   * (docs/benchmarks.md, "Issue 20: re-assigned containers, fourth round").
   */
  private List<String> dirty = new ArrayList<>();

  /** By cache id, for the containers marked once and not deleted since. */
  private final Map<String, Marked> marked = new HashMap<>();

  /** How many flushes handed their list over: the flush a mark belongs to. */
  private long flushes;

  /** A container's directory name (its hash computed once) and the flush it is marked for. */
  private static final class Marked {
    final String name;
    long flush = -1;

    Marked(String cacheId) {
      name = directoryName(cacheId);
    }
  }

  private ExportedResources(Optional<Path> root) {
    this.root = root;
    this.files = root.map(r -> new ExportFiles(r, submitted::remove));
  }

  /** Container directories under {@code relayDir}/containers. */
  static ExportedResources in(Path relayDir) {
    return new ExportedResources(Optional.of(relayDir.resolve(DIRECTORY)));
  }

  /** Marks {@code cacheId}'s data for a check at the end of the step. */
  void changed(String cacheId) {
    if (root.isPresent()) {
      Marked m = marked.computeIfAbsent(cacheId, Marked::new);
      if (m.flush != flushes) {
        m.flush = flushes;
        dirty.add(cacheId);
      }
    }
  }

  /** Hands the data of every container marked since the last flush to the writer. */
  void flush(Section s) {
    if (dirty.isEmpty()) {
      return;
    }
    List<String> ids = dirty;
    dirty = new ArrayList<>(ids.size());
    flushes++;
    contents(s, ids, this::writeLater);
  }

  /**
   * Makes the directory of {@code cacheId}, a container being created, now: it must exist before
   * the runtime mounts it. Its file is written by {@link #writePending} once the create is on its
   * way, and before the create is answered
   * (docs/adr/0015-created-containers-file-written-while-the-runtime-creates.md). The mount to add
   * to its request; empty if the directory could not be made (the container is then created without
   * it).
   */
  Optional<Mount> prepare(Section s, String cacheId) {
    Marked m = marked.get(cacheId);
    if (m != null && m.flush == flushes) {
      m.flush = -1;
      dirty.remove(cacheId);
    }
    String name = directoryName(cacheId);
    Map<String, String> one = new HashMap<>(2);
    contents(s, List.of(cacheId), one::put);
    Optional<String> content =
        Optional.ofNullable(one.get(cacheId)).filter(c -> validName(cacheId, name));
    if (files.isEmpty() || content.isEmpty()) {
      return Optional.empty();
    }
    if (!files.get().prepare(name, content.get())) {
      submitted.remove(name);
      return Optional.empty();
    }
    submitted.put(name, content.get());
    return Optional.of(
        Mount.newBuilder()
            .setContainerPath(CONTAINER_PATH)
            .setHostPath(root.orElseThrow().resolve(name).toString())
            .setReadonly(true)
            // Private: a rename inside the mounted directory needs no propagation, and runtimes
            // refuse rslave from a mount that is not shared (docs/exported-resources.md).
            .setPropagation(MountPropagation.PROPAGATION_PRIVATE)
            .build());
  }

  /**
   * Writes the file of {@code cacheId} now if content for it is pending: the one {@link #prepare}
   * held for a container being created, or what a step handed to the writer's thread (after a
   * restart, every container's). Called after a create is sent and before a container starts, so
   * that a container never starts without its file. Thread-safe: it touches only the files.
   */
  void writePending(String cacheId) {
    files.ifPresent(f -> f.writePending(directoryName(cacheId)));
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
          // Through the files' lock and bookkeeping: a directory this process made (or a write
          // to retry) must be forgotten with it, or a later prepare of the name would skip the
          // mkdir (NRI mode reconciles at every Synchronize, not only at start).
          files.orElseThrow().deleteNow(entry.getFileName().toString());
        }
      }
    } catch (IOException e) {
      LOG.warn("cannot clean up exported resources in {}: {}", root.get(), e.toString());
    }
  }

  /** Waits until the data handed to the writer so far is on disk (tests). */
  void awaitWritten(Duration limit) throws InterruptedException, TimeoutException {
    if (files.isPresent()) {
      files.get().await(limit);
    }
  }

  /** Writes what is pending and stops the writer (after the pipeline stopped). */
  @Override
  public void close() {
    files.ifPresent(ExportFiles::close);
  }

  /**
   * Gives {@code sink} the file of each of {@code ids} that is active, in order, as cache id and
   * content; the directories of those gone from the cache are removed here, others are left as they
   * are. No map of the contents: a step may change hundreds of containers' files
   * (docs/benchmarks.md, "Issue 20: re-assigned containers").
   */
  private void contents(Section s, List<String> ids, BiConsumer<String, String> sink) {
    List<Container> active = new ArrayList<>(ids.size());
    for (String id : ids) {
      Container c = s.cache().containerOrNull(id);
      if (c == null) {
        delete(id);
      } else if (c.state().isActive()) {
        active.add(c);
      }
    }
    if (active.isEmpty()) {
      return;
    }
    List<Map<String, String>> data = data(s, active);
    // Containers of one pool mostly have the same data: each distinct file is rendered once, and
    // the data of the one before (often the same map) is compared by identity first.
    Map<Map<String, String>, String> rendered = new HashMap<>();
    @Nullable Map<String, String> lastVars = null;
    String lastContent = "";
    for (int i = 0; i < active.size(); i++) {
      Container c = active.get(i);
      Map<String, String> vars = data.isEmpty() ? Map.of() : data.get(i);
      if (vars != lastVars) {
        lastVars = vars;
        lastContent = rendered.computeIfAbsent(vars, v -> render(c.cacheId(), v));
      }
      sink.accept(c.cacheId(), lastContent);
    }
  }

  /** The policy's data for each of {@code containers}, in order; empty for none at all. */
  private static List<Map<String, String>> data(Section s, List<Container> containers) {
    if (!(s.policy().policy() instanceof ResourceExport export)) {
      return List.of();
    }
    List<Map<String, String>> data;
    try {
      data = export.exportedResources(containers, s.cache());
      if (data.size() != containers.size()) {
        throw new IllegalStateException(
            "data for " + data.size() + " containers, asked for " + containers.size());
      }
    } catch (RuntimeException e) {
      LOG.warn("policy {} cannot export resource data: {}", s.policy().name(), e.toString());
      return List.of();
    }
    return data;
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

  /** {@code value} with a backslash before each backslash, double quote, dollar and backtick. */
  private static String quote(String value) {
    @Nullable StringBuilder out = null;
    for (int i = 0; i < value.length(); i++) {
      char ch = value.charAt(i);
      if (ch == '\\' || ch == '"' || ch == '$' || ch == '`') {
        if (out == null) {
          out = new StringBuilder(value.length() + 8).append(value, 0, i);
        }
        out.append('\\');
      }
      if (out != null) {
        out.append(ch);
      }
    }
    return out == null ? value : out.toString();
  }

  /** The directory name of a container: its cache id with the first ':' as '-'. */
  static String directoryName(String cacheId) {
    int colon = cacheId.indexOf(':');
    return colon < 0 ? cacheId : cacheId.substring(0, colon) + "-" + cacheId.substring(colon + 1);
  }

  private static boolean validName(String cacheId, String name) {
    boolean valid =
        !name.isEmpty() && !name.equals(".") && !name.equals("..") && name.indexOf('/') < 0;
    if (!valid) {
      LOG.warn("container {}: no exported resources, \"{}\" is no directory name", cacheId, name);
    }
    return valid;
  }

  private void writeLater(String cacheId, String content) {
    // One name string per container: its hash is computed once, not at every step.
    String name = marked.computeIfAbsent(cacheId, Marked::new).name;
    if (content.equals(submitted.get(name)) || !validName(cacheId, name)) {
      return;
    }
    submitted.put(name, content);
    files.orElseThrow().writeLater(name, content);
  }

  private void delete(String cacheId) {
    String name = directoryName(cacheId);
    marked.remove(cacheId);
    submitted.remove(name);
    if (files.isPresent() && validName(cacheId, name)) {
      files.get().deleteLater(name);
    }
  }
}
