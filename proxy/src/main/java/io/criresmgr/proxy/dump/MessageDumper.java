package io.criresmgr.proxy.dump;

import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.config.DumpRules.Level;
import io.criresmgr.proxy.relay.RelayListener;
import io.grpc.Status;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Dumps relayed calls per the {@code dump} configuration. Reconfigurable at any time: a new
 * configuration takes effect for calls that start afterwards.
 */
public final class MessageDumper implements RelayListener, AutoCloseable {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy-MMM-dd HH:mm:ss.SSS", Locale.ROOT);

  private final MessageCatalog catalog;

  /** How long a dump file that could not be opened at start waits before the next try. */
  static final Duration RETRY = Duration.ofSeconds(30);

  private static final Logger LOG = LoggerFactory.getLogger(MessageDumper.class);

  private volatile State state;
  private volatile @Nullable String openFailure;
  private @Nullable ScheduledExecutorService retry;
  private Duration retryDelay = RETRY;

  /** A dumper for the CRI messages, configured by {@code config}. */
  public MessageDumper(DumpConfig config) {
    this.catalog = MessageCatalog.cri();
    this.state = State.of(config);
  }

  private MessageDumper(State state, Duration retryDelay) {
    this.catalog = MessageCatalog.cri();
    this.state = state;
    this.retryDelay = retryDelay;
  }

  /**
   * A dumper for the daemon's start, where the dump file is optional: if it cannot be opened, the
   * messages go to the log only, {@link #problem} says why, and the file is tried again every
   * {@link #RETRY} until it opens or another configuration is applied.
   */
  public static MessageDumper starting(DumpConfig config) {
    return starting(config, RETRY);
  }

  /** {@link #starting(DumpConfig)} trying a file that cannot be opened every {@code retry}. */
  public static MessageDumper starting(DumpConfig config, Duration retry) {
    try {
      return new MessageDumper(State.of(config), retry);
    } catch (IllegalArgumentException e) {
      LOG.warn(
          "{}; dumping to the log only, trying again every {} ms",
          e.getMessage(),
          retry.toMillis());
      DumpConfig logOnly = new DumpConfig(config.config(), "", config.debug(), config.disabled());
      MessageDumper dumper = new MessageDumper(State.of(logOnly), retry);
      dumper.retryLater(config, Objects.requireNonNullElse(e.getMessage(), e.toString()));
      return dumper;
    }
  }

  private synchronized void retryLater(DumpConfig config, String why) {
    openFailure = why;
    if (retry == null) {
      retry =
          Executors.newSingleThreadScheduledExecutor(
              new DefaultThreadFactory("dump-file-retry", true));
    }
    // retryOpen reports its own failures (openFailure, the log).
    var unused =
        retry.schedule(() -> retryOpen(config), retryDelay.toMillis(), TimeUnit.MILLISECONDS);
  }

  private synchronized void retryOpen(DumpConfig config) {
    if (openFailure == null) {
      return; // another configuration was applied meanwhile
    }
    try {
      swap(State.of(config));
      openFailure = null;
      LOG.info("dump file {} is open now", config.file());
    } catch (IllegalArgumentException e) {
      retryLater(config, Objects.requireNonNullElse(e.getMessage(), e.toString()));
    }
  }

  /** Swaps in a new configuration (the dump file, if any, is truncated); closes the old one. */
  public synchronized void configure(DumpConfig config) {
    swap(State.of(config));
    openFailure = null;
  }

  private void swap(State next) {
    State old = state;
    state = next;
    old.sink().close();
  }

  /** Why the dump file is not written, for {@code /healthz}; empty when it is (or none is set). */
  public Optional<String> problem() {
    String failure = openFailure;
    return failure != null ? Optional.of(failure) : state.sink().problem();
  }

  @Override
  public CallTrace callStarted(String fullMethodName) {
    return callStarted(fullMethodName, false);
  }

  @Override
  public CallTrace callStarted(String fullMethodName, boolean intercepted) {
    State s = state;
    if (s.disabled()) {
      return CallTrace.NONE;
    }
    String method = fullMethodName.substring(fullMethodName.lastIndexOf('/') + 1);
    Level level = s.rules().levelFor(method);
    return level == Level.OFF
        ? CallTrace.NONE
        : new Trace(
            s.sink(), level, fullMethodName, intercepted ? "(intercepted) " : "(passthrough) ");
  }

  @Override
  public synchronized void close() {
    if (retry != null) {
      retry.shutdownNow();
    }
    openFailure = null;
    state.sink().close();
  }

  private record State(DumpMatcher rules, DumpSink sink, boolean disabled) {
    static State of(DumpConfig config) {
      return new State(
          DumpMatcher.parse(config.config()),
          config.disabled()
              ? DumpSink.open(false, "")
              : DumpSink.open(config.debug(), config.file()),
          config.disabled());
    }
  }

  /** One call's dump; the kind says whether the resource manager intercepted it. */
  private final class Trace implements CallTrace {
    private final DumpSink sink;
    private final Level level;
    private final String fullMethod;
    private final String header;
    private final String kind;
    private final long start = System.nanoTime();

    Trace(DumpSink sink, Level level, String fullMethod, String kind) {
      this.sink = sink;
      this.kind = kind;
      this.level = level;
      this.fullMethod = fullMethod;
      this.header = fullMethod.substring(fullMethod.lastIndexOf('/') + 1);
    }

    @Override
    public void request(byte[] message) {
      if (level == Level.FULL) {
        String hdr = header + " => ";
        Optional<Message> decoded = catalog.request(fullMethod, message);
        sink.emit(false, message(hdr, kind + "REQUEST", decoded, message.length), requestStamp());
      }
    }

    @Override
    public void response(byte[] message) {
      if (level == Level.FULL) {
        String hdr = header + " <= ";
        Optional<Message> decoded = catalog.response(fullMethod, message);
        sink.emit(false, message(hdr, kind + "REPLY", decoded, message.length), replyStamp());
      }
    }

    @Override
    public void closed(Status status, long totalNanos, long runtimeNanos) {
      String hdr = header + " <= ";
      if (!status.isOk()) {
        String error = status.getCode() + ": " + status.getDescription();
        List<String> lines =
            level == Level.FULL
                ? List.of(hdr + kind + "FAILED", hdr + "    " + error)
                : List.of(hdr + kind + "FAILED: " + error);
        sink.emit(true, lines, replyStamp());
      } else if (level == Level.NAME) {
        sink.emit(false, List.of(hdr + kind + "REPLY"), replyStamp());
      }
    }

    private String requestStamp() {
      return LocalDateTime.now(ZoneId.systemDefault()).format(STAMP);
    }

    private String replyStamp() {
      double seconds = (System.nanoTime() - start) / 1e9;
      return String.format(Locale.ROOT, "%24s", String.format(Locale.ROOT, "+%f", seconds));
    }
  }

  /** One line if the text is one line, else a header line and indented message lines. */
  static List<String> message(String hdr, String what, Optional<Message> decoded, int size) {
    String prefix = hdr + what;
    if (decoded.isEmpty()) {
      return List.of(prefix + " <" + size + " bytes, not decoded>");
    }
    String text = TextFormat.printer().printToString(decoded.get()).strip();
    if (text.isEmpty()) {
      return List.of(prefix + " {}");
    }
    String[] textLines = text.split("\n", -1); // stripped: no trailing empty lines
    if (textLines.length == 1) {
      return List.of(prefix + " " + textLines[0]);
    }
    List<String> lines = new ArrayList<>(textLines.length + 1);
    lines.add(prefix);
    for (String line : textLines) {
      lines.add(hdr + "    " + line);
    }
    return lines;
  }
}
