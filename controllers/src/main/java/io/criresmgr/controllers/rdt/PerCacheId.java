package io.criresmgr.controllers.rdt;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * An allocation value per cache id: {@code all} for every cache id, overridden for the ids listed
 * (the configuration's {@code {all: ..., "0": ..., "1-3": ...}} form; a plain value means {@code
 * all}).
 *
 * @param all the value for ids not listed, if given
 * @param byId the values for listed cache ids
 * @param <T> the value type
 */
public record PerCacheId<T>(@Nullable T all, Map<Integer, T> byId) {
  /** Copies the map. */
  public PerCacheId {
    byId = Map.copyOf(byId);
  }

  /** The value for cache id {@code id}. */
  public Optional<T> get(int id) {
    T v = byId.get(id);
    return Optional.ofNullable(v != null ? v : all);
  }

  /** One value for all ids. */
  public static <T> PerCacheId<T> of(T all) {
    return new PerCacheId<>(Objects.requireNonNull(all, "all"), Map.of());
  }
}
