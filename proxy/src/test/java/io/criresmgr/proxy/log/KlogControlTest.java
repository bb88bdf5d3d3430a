package io.criresmgr.proxy.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.config.KlogFlag;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class KlogControlTest {
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
  private final Logger logger = (Logger) LoggerFactory.getLogger(KlogControl.class);

  @BeforeEach
  void capture() {
    logged.start();
    logger.addAppender(logged);
  }

  @AfterEach
  void release() {
    logger.detachAppender(logged);
  }

  private List<String> warnings() {
    return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  @Test
  void warnsOncePerDistinctSetAndFollowsLoggerKlog() {
    List<Boolean> skips = new ArrayList<>();
    KlogControl control =
        new KlogControl(KlogSettings.defaults().with(KlogFlag.V, "2", "-v"), skips::add);
    Config quiet = Config.defaults();
    Config loud =
        ConfigLoader.builtIn()
            .parse("test", "logger:\n  Klog:\n    skip_headers: true\n    log_dir: /x\n");
    control.configChanged(quiet);
    control.configChanged(quiet);
    control.configChanged(loud);
    control.configChanged(loud);
    control.configChanged(quiet);
    String v =
        "-v=2 (no verbosity levels: debug logging is per source, set with LOGGER_DEBUG or"
            + " logger.Debug)";
    String prefix = "ignoring cri-resmgr logging settings this daemon cannot honour: ";
    assertEquals(
        List.of(
            prefix + v,
            prefix + "logger.Klog.log_dir=/x (no log files: every line goes to stderr); " + v),
        warnings());
    assertEquals(List.of(false, false, true, true, false), skips);
  }
}
