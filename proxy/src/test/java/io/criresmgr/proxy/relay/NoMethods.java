package io.criresmgr.proxy.relay;

import io.grpc.HandlerRegistry;
import io.grpc.ServerMethodDefinition;
import org.jspecify.annotations.Nullable;

/** A relay server's fallback registry for tests that make no calls: it knows no method. */
public final class NoMethods extends HandlerRegistry {
  /** The one instance. */
  public static final NoMethods REGISTRY = new NoMethods();

  private NoMethods() {}

  @Override
  public @Nullable ServerMethodDefinition<?, ?> lookupMethod(
      String methodName, @Nullable String authority) {
    return null;
  }
}
