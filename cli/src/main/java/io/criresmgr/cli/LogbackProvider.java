package io.criresmgr.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.joran.spi.JoranException;
import ch.qos.logback.core.status.ErrorStatus;
import ch.qos.logback.core.util.StatusPrinter2;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * The SLF4J binding of every program: logback, set up by {@link LogbackSetup} directly. Logback's
 * own provider finds its configurators through a service lookup, and SLF4J finds the provider
 * through another; each opens every jar on the class path and together they cost the daemon a tenth
 * of its start-up (docs/benchmarks.md, "Start-up"). {@link #select()} names this class to SLF4J,
 * which then skips its lookup. A {@code logback.configurationFile} property, or a {@code
 * logback.xml} on the class path, still gets logback's usual configuration.
 */
public final class LogbackProvider implements SLF4JServiceProvider {
  /** SLF4J's property naming the provider to use without a service lookup. */
  static final String PROVIDER_PROPERTY = "slf4j.provider";

  /**
   * SLF4J's property for the level of its own reports: at the default, INFO, naming a provider
   * prints a line on every start.
   */
  static final String VERBOSITY_PROPERTY = "slf4j.internal.verbosity";

  /** Logback's property naming a configuration file of the user's. */
  static final String CONFIGURATION_FILE = "logback.configurationFile";

  private final LoggerContext context = new LoggerContext();
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final LogbackMDCAdapter mdc = new LogbackMDCAdapter();

  /**
   * Makes SLF4J bind to this provider, unless the command line named one; call before the first
   * logger is asked for.
   */
  public static void select() {
    if (System.getProperty(PROVIDER_PROPERTY) == null) {
      System.setProperty(PROVIDER_PROPERTY, LogbackProvider.class.getName());
      if (System.getProperty(VERBOSITY_PROPERTY) == null) {
        System.setProperty(VERBOSITY_PROPERTY, "WARN");
      }
    }
  }

  @Override
  public void initialize() {
    context.setName(CoreConstants.DEFAULT_CONTEXT_NAME);
    context.setMDCAdapter(mdc);
    if (System.getProperty(CONFIGURATION_FILE) != null) {
      autoConfigure();
    } else {
      LogbackSetup.apply(context);
    }
    context.start();
  }

  private void autoConfigure() {
    try {
      new ContextInitializer(context).autoConfig();
    } catch (JoranException e) {
      // Logback's own provider goes on with what was configured, and so do we; the status
      // printer below names the problem.
      context.getStatusManager().add(new ErrorStatus("Failed to configure logback", this, e));
    }
    new StatusPrinter2().printInCaseOfErrorsOrWarnings(context);
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return context;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }
}
