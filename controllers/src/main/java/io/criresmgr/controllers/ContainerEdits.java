package io.criresmgr.controllers;

import io.criresmgr.cache.LinuxResources;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Changes controllers make to a CreateContainer request before it goes to the runtime. Collected on
 * the pipeline thread, then written into the request by the proxy; not thread-safe.
 */
public final class ContainerEdits {
  private @Nullable LinuxResources linux;
  private final Map<String, String> annotations = new LinkedHashMap<>();
  private final Map<String, String> env = new LinkedHashMap<>();

  /** Replaces the request's linux resources by {@code resources}. */
  public void setLinuxResources(LinuxResources resources) {
    linux = resources;
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

  /** Annotations to add. */
  public Map<String, String> annotations() {
    return Map.copyOf(annotations);
  }

  /** Environment variables to add. */
  public Map<String, String> env() {
    return Map.copyOf(env);
  }
}
