package io.criresmgr.policy;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** An explicit, immutable registry of policy providers; duplicate names are rejected. */
public final class PolicyRegistry {
  private final Map<String, PolicyProvider<?>> providers;

  /** Builds a registry from an explicit list, in the given order. */
  public PolicyRegistry(List<? extends PolicyProvider<?>> providers) {
    Map<String, PolicyProvider<?>> byName = new LinkedHashMap<>();
    for (PolicyProvider<?> provider : providers) {
      Objects.requireNonNull(provider, "provider");
      if (byName.putIfAbsent(provider.name(), provider) != null) {
        throw new IllegalArgumentException("duplicate policy name \"" + provider.name() + "\"");
      }
    }
    this.providers = Collections.unmodifiableMap(byName);
  }

  /** The provider with this name, if registered. */
  public Optional<PolicyProvider<?>> find(String name) {
    return Optional.ofNullable(providers.get(name));
  }

  /**
   * The provider with this name.
   *
   * @throws PolicyException naming the unknown policy and listing the registered ones
   */
  public PolicyProvider<?> require(String name) {
    return find(name)
        .orElseThrow(
            () ->
                new PolicyException(
                    "unknown policy \""
                        + name
                        + "\", expected one of "
                        + String.join(", ", names())));
  }

  /** Every provider, in registration order. */
  public Collection<PolicyProvider<?>> all() {
    return providers.values();
  }

  /** Registered names, in registration order. */
  public List<String> names() {
    return List.copyOf(providers.keySet());
  }
}
