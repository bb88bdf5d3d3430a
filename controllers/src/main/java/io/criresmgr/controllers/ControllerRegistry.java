package io.criresmgr.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * An explicit, immutable registry of controller providers; duplicate controller or section names
 * are rejected. The built-in one is {@code io.criresmgr.controllers.builtin.BuiltInControllers}.
 */
public final class ControllerRegistry {
  private final Map<String, ControllerProvider> providers;
  private final Map<String, ControllerSection<?>> sections;

  /** Builds a registry from an explicit list, in the given order. */
  public ControllerRegistry(List<? extends ControllerProvider> providers) {
    Map<String, ControllerProvider> byName = new LinkedHashMap<>();
    Map<String, ControllerSection<?>> bySection = new LinkedHashMap<>();
    for (ControllerProvider provider : providers) {
      Objects.requireNonNull(provider, "provider");
      if (byName.putIfAbsent(provider.name(), provider) != null) {
        throw new IllegalArgumentException("duplicate controller name \"" + provider.name() + "\"");
      }
      provider
          .section()
          .ifPresent(
              s -> {
                if (bySection.putIfAbsent(s.name(), s) != null) {
                  throw new IllegalArgumentException(
                      "duplicate controller section \"" + s.name() + "\"");
                }
              });
    }
    this.providers = Collections.unmodifiableMap(byName);
    this.sections = Collections.unmodifiableMap(bySection);
  }

  /** The provider with this name, if registered. */
  public Optional<ControllerProvider> find(String name) {
    return Optional.ofNullable(providers.get(name));
  }

  /** Every provider, in registration order. */
  public Collection<ControllerProvider> all() {
    return providers.values();
  }

  /** Registered controller names, in registration order. */
  public List<String> names() {
    return List.copyOf(providers.keySet());
  }

  /** The configuration sections of the controllers, in registration order. */
  public Collection<ControllerSection<?>> sections() {
    return sections.values();
  }

  /** The section names, in registration order (the documented order). */
  public List<String> sectionNames() {
    return List.copyOf(sections.keySet());
  }

  /**
   * Checks section {@code name} by parsing it.
   *
   * @throws ControllerException naming the path, the value and what is allowed
   * @throws IllegalArgumentException if {@code name} is not a controller section
   */
  public void validate(String name, JsonNode section) {
    ControllerSection<?> s = sections.get(name);
    if (s == null) {
      throw new IllegalArgumentException("not a controller section: " + name);
    }
    s.parse(section);
  }

  /** Fresh instances of every registered controller, in registration order. */
  public List<Controller> createAll() {
    return providers.values().stream().map(ControllerProvider::create).toList();
  }
}
