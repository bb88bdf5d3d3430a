package io.criresmgr.proxy.dump;

import com.google.protobuf.Message;
import com.google.protobuf.TextFormat;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.config.DumpRules.Level;
import io.criresmgr.proxy.relay.RelayListener;
import io.grpc.Status;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Dumps relayed calls per the {@code dump} configuration. Reconfigurable at any time: a new
 * configuration takes effect for calls that start afterwards.
 */
public final class MessageDumper implements RelayListener, AutoCloseable {
  private static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyy-MMM-dd HH:mm:ss.SSS", Locale.ROOT);

  private final MessageCatalog catalog;
  private volatile State state;

  /** A dumper for the CRI messages, configured by {@code config}. */
  public MessageDumper(DumpConfig config) {
    this.catalog = MessageCatalog.cri();
    this.state = State.of(config);
  }

  /** Swaps in a new configuration (the dump file, if any, is truncated); closes the old one. */
  public void configure(DumpConfig config) {
    State old = state;
    state = State.of(config);
    old.sink().close();
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
  public void close() {
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
      return LocalDateTime.now().format(STAMP);
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
    String[] textLines = text.split("\n");
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
