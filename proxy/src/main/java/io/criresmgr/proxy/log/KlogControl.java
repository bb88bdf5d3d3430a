package io.criresmgr.proxy.log;

import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigListener;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies cri-resmgr's klog settings: the environment and the command line ({@code base}) with
 * {@code logger.Klog} of the active configuration on top. Turns the time stamp off for {@code
 * skip_headers} and logs one warning line naming what it cannot honour, once per distinct set. As a
 * {@link ConfigListener} it follows configuration reloads. Thread-safe.
 */
public final class KlogControl implements ConfigListener {
  private static final Logger LOG = LoggerFactory.getLogger(KlogControl.class);

  private final KlogSettings base;
  private final HeaderSink headers;
  private final Set<String> warned = new HashSet<>();
  private KlogSettings effective;

  /** Controls {@code headers} from {@code base}; call {@link #configChanged} to apply. */
  public KlogControl(KlogSettings base, HeaderSink headers) {
    this.base = Objects.requireNonNull(base, "base");
    this.headers = Objects.requireNonNull(headers, "headers");
    this.effective = base;
  }

  /** Applies {@code base} with {@code logger.Klog} of {@code config} on top. */
  @Override
  public synchronized void configChanged(Config config) {
    effective = base.withConfig(config.logger().klog());
    headers.skipHeaders(effective.skipHeaders());
    effective.warning().filter(warned::add).ifPresent(LOG::warn);
  }

  /** The settings in force. */
  public synchronized KlogSettings effective() {
    return effective;
  }
}
