package io.criresmgr.proxy.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.KlogFlag;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KlogSettingsTest {
  private static final String PREFIX =
      "ignoring cri-resmgr logging settings this daemon cannot honour: ";

  @Test
  void defaultsAndHonouredSettingsWarnOfNothing() {
    KlogSettings s =
        KlogSettings.defaults()
            .with(KlogFlag.LOGTOSTDERR, "true", "-logtostderr")
            .with(KlogFlag.ALSOLOGTOSTDERR, "true", "-alsologtostderr")
            .with(KlogFlag.SKIP_HEADERS, "1", "LOGGER_SKIP_HEADERS")
            .with(KlogFlag.V, "0", "-v")
            .with(KlogFlag.LOG_FILE_MAX_SIZE, "1800", "-log_file_max_size");
    assertEquals(Optional.empty(), s.warning());
    assertTrue(s.skipHeaders());
    assertFalse(KlogSettings.defaults().skipHeaders());
  }

  @Test
  void oneWarningNamesEachIgnoredSettingItsValueAndWhy() {
    KlogSettings s =
        KlogSettings.defaults()
            .with(KlogFlag.V, "2", "-v")
            .with(KlogFlag.LOG_DIR, "/tmp/x", "-log_dir")
            .with(KlogFlag.LOGTOSTDERR, "false", "LOGGER_LOGTOSTDERR")
            .with(KlogFlag.STDERRTHRESHOLD, "info", "logger.Klog.stderrthreshold")
            .with(KlogFlag.ADD_DIR_HEADER, "t", "-add_dir_header")
            .with(KlogFlag.LOG_BACKTRACE_AT, "main.go:3", "-log_backtrace_at")
            .withNote("LOGGER_FOO=1 (unknown)");
    assertEquals(
        Optional.of(
            PREFIX
                + "-add_dir_header=t (log lines name no source files);"
                + " -log_backtrace_at=main.go:3 (no stack traces on demand);"
                + " -log_dir=/tmp/x (no log files: every line goes to stderr);"
                + " LOGGER_LOGTOSTDERR=false (no log files: every line goes to stderr);"
                + " logger.Klog.stderrthreshold=info (every line goes to stderr);"
                + " -v=2 (no verbosity levels: debug logging is per source, set with LOGGER_DEBUG"
                + " or logger.Debug); LOGGER_FOO=1 (unknown)"),
        s.warning());
  }

  @Test
  void laterLayersWinAndABadValueNamesItsSource() {
    KlogSettings s =
        KlogSettings.defaults()
            .with(KlogFlag.V, "5", "LOGGER_V")
            .with(KlogFlag.V, "3", "-v")
            .withConfig(Map.of("v", "0", "skip_headers", "true"));
    assertEquals("0", s.value(KlogFlag.V));
    assertTrue(s.skipHeaders());
    assertEquals(List.of(), s.ignored());
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> KlogSettings.defaults().withConfig(Map.of("v", "abc")));
    assertEquals("logger.Klog.v: invalid value \"abc\", expected an integer", e.getMessage());
  }

  @Test
  void theEnvironmentSetsDefaultsAndNotesUnknownLoggerVariables() {
    KlogSettings s =
        KlogEnvironment.read(
            Map.of(
                "LOGGER_V", "2",
                "LOGGER_DEBUG", "cache",
                "LOGGER_FOO", "bar",
                "LOGGER_SKIP_HEADERS", "true",
                "PATH", "/bin"));
    assertTrue(s.skipHeaders());
    assertEquals(
        List.of(
            "LOGGER_V=2 (no verbosity levels: debug logging is per source, set with LOGGER_DEBUG"
                + " or logger.Debug)",
            "LOGGER_FOO=bar (unknown variable: cri-resmgr reads LOGGER_DEBUG and LOGGER_<klog"
                + " flag>, e.g. LOGGER_SKIP_HEADERS)"),
        s.ignored());
  }

  @Test
  void theJournalTurnsHeadersOffUnlessLoggerSkipHeadersSaysOtherwise() {
    assertTrue(KlogEnvironment.read(Map.of("JOURNAL_STREAM", "8:1234")).skipHeaders());
    assertFalse(KlogEnvironment.read(Map.of("JOURNAL_STREAM", "")).skipHeaders());
    assertFalse(
        KlogEnvironment.read(Map.of("JOURNAL_STREAM", "8:1234", "LOGGER_SKIP_HEADERS", "false"))
            .skipHeaders());
    assertFalse(
        KlogEnvironment.read(Map.of("JOURNAL_STREAM", "8:1234"))
            .with(KlogFlag.SKIP_HEADERS, "false", "-skip_headers")
            .skipHeaders(),
        "the command line overrides the environment");
  }

  @Test
  void aMalformedVariableIsAConfigurationError() {
    ConfigException e =
        assertThrows(ConfigException.class, () -> KlogEnvironment.read(Map.of("LOGGER_V", "abc")));
    assertEquals("LOGGER_V: invalid value \"abc\", expected an integer", e.getMessage());
  }
}
