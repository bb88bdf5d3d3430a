package io.criresmgr.proxy.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.criresmgr.proxy.log.KlogControl;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/** cri-resmgr's klog flags in every spelling of Go's flag package, through the real command. */
class KlogFlagOptionsTest {
  private static final String NO_LEVELS =
      "(no verbosity levels: debug logging is per source, set with LOGGER_DEBUG or logger.Debug)";
  private static final String NO_FILES = "(no log files: every line goes to stderr)";

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

  /** The warnings of one start with {@code args}; fails unless it started. */
  private List<String> warnings(String... args) {
    logged.list.clear();
    CliRun run = CliRun.of(args);
    assertEquals(0, run.status, run.err);
    run.options();
    return logged.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
  }

  private String warning(String... args) {
    List<String> w = warnings(args);
    assertEquals(1, w.size(), w.toString());
    return w.get(0);
  }

  /** Starting with {@code spelling} (split at blanks) warns once, and of {@code part}. */
  private void assertWarns(String part, String spelling) {
    String w = warning(spelling.split(" "));
    assertTrue(w.contains(part), part + " in " + w);
  }

  @ParameterizedTest
  @ValueSource(strings = {"-v=2", "-v 2", "--v=2", "--v 2"})
  void verbosityInEverySpelling(String spelling) {
    assertWarns("-v=2 " + NO_LEVELS, spelling);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"-log_dir=/tmp/x", "-log_dir /tmp/x", "--log_dir=/tmp/x", "--log_dir /tmp/x"})
  void stringFlagsInEverySpelling(String spelling) {
    assertWarns("-log_dir=/tmp/x " + NO_FILES, spelling);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "-add_dir_header",
        "--add_dir_header",
        "-add_dir_header=true",
        "-add_dir_header=1",
        "--add_dir_header=T",
        "-add_dir_header true"
      })
  void booleansInEverySpelling(String spelling) {
    assertWarns("-add_dir_header=true (log lines name no source files)", spelling);
  }

  @Test
  void honouredFlagsAndKlogDefaultsWarnOfNothing() {
    List<String> w =
        warnings(
            "-logtostderr",
            "-alsologtostderr=true",
            "-skip_headers=false",
            "-v=0",
            "-add_dir_header=false",
            "-stderrthreshold=error",
            "-log_file_max_size",
            "1800");
    assertTrue(w.stream().noneMatch(line -> line.contains("-")), w.toString());
  }

  @Test
  void everyIgnoredFlagIsNamedInOneLineWithTheOtherFlags() {
    String w =
        warning(
            "-v=2",
            "-vmodule=relay=3",
            "-logtostderr=false",
            "-log_file",
            "/tmp/f.log",
            "-log_file_max_size=10",
            "-skip_log_headers",
            "-one_output",
            "-stderrthreshold=INFO",
            "-log_backtrace_at=relay.go:10",
            "--relay-dir",
            "/tmp/never-created");
    for (String part :
        List.of(
            "-log_backtrace_at=relay.go:10 (no stack traces on demand)",
            "-log_file=/tmp/f.log " + NO_FILES,
            "-log_file_max_size=10 " + NO_FILES,
            "-logtostderr=false " + NO_FILES,
            "-one_output=true " + NO_FILES,
            "-skip_log_headers=true " + NO_FILES,
            "-stderrthreshold=INFO (every line goes to stderr)",
            "-v=2 " + NO_LEVELS,
            "-vmodule=relay=3 " + NO_LEVELS)) {
      assertTrue(w.contains(part), part + " in " + w);
    }
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "-v=abc | Invalid value for option '--v': invalid value \"abc\", expected an integer",
        "-logtostderr=yes | Invalid value for option '--logtostderr': invalid value \"yes\","
            + " expected true or false (also 1, 0, t, f)",
        "-stderrthreshold=DEBUG | Invalid value for option '--stderrthreshold': invalid value"
            + " \"DEBUG\", expected INFO, WARNING, ERROR or FATAL (any case), or 0 to 3",
      })
  void aMalformedValueIsAUsageErrorNamingFlagValueAndWhatIsAllowed(String arg, String message) {
    CliRun run = CliRun.of(arg);
    assertEquals(1, run.status);
    assertTrue(run.err.startsWith("cri-resmgr: " + message + "\n"), run.err);
  }

  @Test
  void theUsageListsTheKlogFlags() {
    CliRun run = CliRun.of("--help");
    assertEquals(0, run.status, run.err);
    assertTrue(run.out.contains("-v, --v=VALUE"), run.out);
    assertTrue(run.out.contains("--logtostderr[=BOOL]"), run.out);
  }
}
