package io.criresmgr.controllers;

import io.criresmgr.cache.LinuxResources;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * Changes controllers make to a CreateContainer request before it goes to the runtime. Collected on
 * the pipeline thread, then written into the request by the proxy; not thread-safe.
 */
public final class ContainerEdits {
  private @Nullable LinuxResources linux;
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final Map<String, String> env = new LinkedHashMap<>();
  private final Map<String, String> unified = new TreeMap<>();
  private final Map<String, String> unifiedOwners = new TreeMap<>();
  private @Nullable String rdtClass;
  private @Nullable String blockIoClass;

  /** Replaces the request's linux resources by {@code resources}. */
  public void setLinuxResources(LinuxResources resources) {
    linux = resources;
  }

  /**
   * Sets cgroup v2 files (file name to value) in the request's unified resources, on top of
   * whatever else the request carries, all or none. Two controllers may set one file only to the
   * same value: the runtime would otherwise get whichever came last (NRI refuses such conflicts
   * too).
   *
   * @throws ControllerException naming the file, both controllers and both values on a conflict;
   *     then none of {@code files} is set
   */
  public void claimUnified(String owner, Map<String, String> files) {
    for (Map.Entry<String, String> e : new TreeMap<>(files).entrySet()) {
      String previous = unified.get(e.getKey());
      if (previous != null && !previous.equals(e.getValue())) {
        throw new ControllerException(
            String.format(
                "conflicting values for cgroup file %s: %s sets \"%s\", %s sets \"%s\"",
                e.getKey(), unifiedOwners.get(e.getKey()), previous, owner, e.getValue()));
      }
    }
    files.forEach(
        (file, value) -> {
          unified.put(file, value);
          unifiedOwners.putIfAbsent(file, owner);
        });
  }

  /** Sets one cgroup v2 file; see {@link #claimUnified(String, Map)}. */
  public void claimUnified(String owner, String file, String value) {
    claimUnified(owner, Map.of(file, value));
  }

  /**
   * The RDT class for the runtime to give the container at creation. Only NRI mode delivers it
   * (NRI's {@code rdt_class}, docs/nri.md); CRI has no field for it, so the relay ignores it.
   */
  public void setRdtClass(String name) {
    rdtClass = requireClass(name);
  }

  /** The block I/O class for the runtime at creation; as {@link #setRdtClass}. */
  public void setBlockIoClass(String name) {
    blockIoClass = requireClass(name);
  }

  /** The RDT class for the runtime at creation, if a controller set one. */
  public Optional<String> rdtClass() {
    return Optional.ofNullable(rdtClass);
  }

  /** The block I/O class for the runtime at creation, if a controller set one. */
  public Optional<String> blockIoClass() {
    return Optional.ofNullable(blockIoClass);
  }

  private static String requireClass(String name) {
    if (name.isEmpty()) {
      throw new IllegalArgumentException("empty class name: the root class is never sent");
    }
    return name;
  }

  /** Sets an annotation on the container. */
  public void putAnnotation(String key, String value) {
    annotations.put(key, value);
  }

  /** Sets an environment variable in the container. */
  public void putEnv(String key, String value) {
    env.put(key, value);
  }

  /** The linux resources to write, if a controller set them. */
  public Optional<LinuxResources> linuxResources() {
    return Optional.ofNullable(linux);
  }

  /** Unified cgroup v2 files to set on top of the request's, sorted by name. */
  public Map<String, String> unified() {
    return java.util.Collections.unmodifiableMap(new TreeMap<>(unified));
  }

  /** Annotations to add. */
  public Map<String, String> annotations() {
    return Map.copyOf(annotations);
  }

  /** Environment variables to add. */
  public Map<String, String> env() {
    return Map.copyOf(env);
  }
}
