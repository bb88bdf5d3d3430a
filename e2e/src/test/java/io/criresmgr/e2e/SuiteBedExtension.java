package io.criresmgr.e2e;

import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Makes a class's {@link SuiteBed} before its {@code @BeforeAll} methods and resolves {@link
 * SuiteBed} parameters to it. JUnit closes the stored bed when the class's context closes, after
 * its {@code @AfterAll} methods.
 */
abstract class SuiteBedExtension implements BeforeAllCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(SuiteBedExtension.class);

  /** The bed of the class of {@code context}; skips or fails the class when it cannot be made. */
  abstract SuiteBed create(ExtensionContext context) throws Exception;

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    context.getStore(NAMESPACE).put(SuiteBed.class, create(context));
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == SuiteBed.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    return context.getStore(NAMESPACE).get(SuiteBed.class, SuiteBed.class);
  }
}
