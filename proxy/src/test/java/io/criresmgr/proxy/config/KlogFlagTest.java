package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KlogFlagTest {
  @Test
  void namesAndVariablesAreKlogsAndCriResmgrs() {
    assertEquals(
        List.of(
            "add_dir_header",
            "alsologtostderr",
            "log_backtrace_at",
            "log_dir",
            "log_file",
            "log_file_max_size",
            "logtostderr",
            "one_output",
            "skip_headers",
            "skip_log_headers",
            "stderrthreshold",
            "v",
            "vmodule"),
        KlogFlag.names());
    assertEquals("LOGGER_SKIP_HEADERS", KlogFlag.SKIP_HEADERS.envName());
    assertEquals("LOGGER_V", KlogFlag.V.envName());
    assertEquals(Optional.of(KlogFlag.LOG_FILE_MAX_SIZE), KlogFlag.named("log_file_max_size"));
    assertEquals(Optional.empty(), KlogFlag.named("verbose"));
  }

  @ParameterizedTest
  @CsvSource({
    "logtostderr, true, true",
    "logtostderr, T, true",
    "logtostderr, 1, true",
    "logtostderr, FALSE, false",
    "logtostderr, f, false",
    "logtostderr, 0, false",
    "v, 4, 4",
    "v, -1, -1",
    "v, 007, 7",
    "log_file_max_size, 0, 0",
    "log_file_max_size, 18446744073709551615, 18446744073709551615",
    "stderrthreshold, warning, WARNING",
    "stderrthreshold, 3, FATAL",
    "vmodule, 'relay*=2,cache=0', 'relay*=2,cache=0'",
    "vmodule, 'a=1,', 'a=1,'",
    "log_backtrace_at, main.go:42, main.go:42",
    "log_backtrace_at, '', ''",
    "log_dir, /var/log/x, /var/log/x",
  })
  void goodValuesAreCanonical(String flag, String value, String canonical) {
    assertEquals(canonical, KlogFlag.named(flag).orElseThrow().check(value));
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "logtostderr | yes | true or false (also 1, 0, t, f)",
        "v | abc | an integer",
        "v | 2.5 | an integer",
        "v | 4294967296 | an integer",
        "log_file_max_size | -1 | a non-negative integer (megabytes)",
        "stderrthreshold | 4 | INFO, WARNING, ERROR or FATAL (any case), or 0 to 3",
        "stderrthreshold | DEBUG | INFO, WARNING, ERROR or FATAL (any case), or 0 to 3",
        "vmodule | relay | comma-separated pattern=N entries, N a non-negative integer",
        "vmodule | a=-1 | comma-separated pattern=N entries, N a non-negative integer",
        "vmodule | =2 | comma-separated pattern=N entries, N a non-negative integer",
        "log_backtrace_at | main:42 | file:line with a positive line, e.g. main.go:42, or an empty"
            + " value",
        "log_backtrace_at | main.go:0 | file:line with a positive line, e.g. main.go:42, or an"
            + " empty value",
      })
  void badValuesSayWhatIsAllowed(String flag, String value, String allowed) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> KlogFlag.named(flag).orElseThrow().check(value));
    assertEquals("invalid value \"" + value + "\", expected " + allowed, e.getMessage());
  }

  @Test
  void defaultsAreValidAndCanonical() {
    for (KlogFlag f : KlogFlag.values()) {
      assertEquals(f.defaultValue(), f.check(f.defaultValue()), f.flagName());
    }
  }
}
