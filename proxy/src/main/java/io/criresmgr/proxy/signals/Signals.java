package io.criresmgr.proxy.signals;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Handles POSIX signals through {@code sun.misc.Signal} (module {@code jdk.unsupported}, the only
 * way the JDK offers). It is reached by reflection because javac reports every direct use as
 * "internal proprietary API", a warning that {@code -Werror} turns into an error and that cannot be
 * suppressed.
 */
public final class Signals {
  private static final Logger LOG = LoggerFactory.getLogger(Signals.class);

  /** An installed handler; closing it restores the previous one. */
  public interface Registration extends AutoCloseable {
    @Override
    void close();
  }

  private Signals() {}

  /**
   * Runs {@code action} on the JVM's signal thread whenever signal {@code name} (e.g. {@code HUP})
   * arrives. Exceptions from {@code action} are logged. Throws {@link IllegalArgumentException} if
   * the signal is unknown or reserved by the JVM.
   */
  public static Registration handle(String name, Runnable action) {
    Objects.requireNonNull(action, "action");
    try {
      Class<?> signalClass = Class.forName("sun.misc.Signal");
      Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
      Object signal = signalClass.getConstructor(String.class).newInstance(name);
      Method install = signalClass.getMethod("handle", signalClass, handlerType);
      Object handler =
          Proxy.newProxyInstance(
              Signals.class.getClassLoader(),
              new Class<?>[] {handlerType},
              invoker("SIG" + name, action));
      Object previous = install.invoke(null, signal, handler);
      return () -> restore(install, signal, previous);
    } catch (InvocationTargetException e) {
      Throwable cause = Objects.requireNonNullElse(e.getCause(), e);
      throw new IllegalArgumentException(
          "cannot handle signal " + name + ": " + cause.getMessage(), cause);
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException("signals cannot be handled in this JVM: " + e, e);
    }
  }

  /**
   * Makes the handlers' proxy class without handling any signal, so that the first {@link #handle}
   * finds it made (the daemon's start warm-up calls it; docs/benchmarks.md, "Start-up").
   *
   * @throws ReflectiveOperationException if signals cannot be handled in this JVM
   */
  public static void prepare() throws ReflectiveOperationException {
    Class<?> handlerType = Class.forName("sun.misc.SignalHandler");
    Object unused =
        Proxy.newProxyInstance(
            Signals.class.getClassLoader(),
            new Class<?>[] {handlerType},
            invoker("none", () -> {}));
  }

  private static InvocationHandler invoker(String signal, Runnable action) {
    return (proxy, method, args) -> {
      return switch (method.getName()) {
        case "handle" -> {
          run(signal, action);
          yield null;
        }
        case "equals" -> proxy == args[0];
        case "hashCode" -> System.identityHashCode(proxy);
        default -> "handler of " + signal;
      };
    };
  }

  private static void run(String signal, Runnable action) {
    try {
      action.run();
    } catch (RuntimeException e) {
      LOG.error("handling {} failed", signal, e);
    }
  }

  private static void restore(Method install, Object signal, Object previous) {
    try {
      install.invoke(null, signal, previous);
    } catch (ReflectiveOperationException e) {
      LOG.warn("cannot restore the previous handler of {}: {}", signal, e.toString());
    }
  }
}
