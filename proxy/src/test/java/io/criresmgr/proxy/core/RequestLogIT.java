package io.criresmgr.proxy.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.criresmgr.cli.RequestConverter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The log lines of an intercepted request carry its method, pod and container (SLF4J MDC) on every
 * thread its work runs on: the transport thread, the pipeline thread and the runtime's reply.
 */
class RequestLogIT {
  @TempDir Path dir;
  private PipelineHarness h;
  private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

  @BeforeEach
  void start() throws Exception {
    logged.start();
    root().addAppender(logged);
    h = new PipelineHarness(dir);
    h.startDaemon();
  }

  @AfterEach
  void close() {
    h.close();
    root().detachAppender(logged);
  }

  private static Logger root() {
    return ((LoggerContext) LoggerFactory.getILoggerFactory())
        .getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  }

  /** The one captured line starting with {@code start}. */
  private ILoggingEvent line(String start) {
    List<ILoggingEvent> found;
    synchronized (logged) {
      found = logged.list.stream().filter(e -> e.getFormattedMessage().startsWith(start)).toList();
    }
    assertEquals(1, found.size(), "lines starting with " + start + ": " + found);
    return found.get(0);
  }

  @Test
  void pipelineStepsLogWithTheRequestsMethodPodAndContainer() throws Exception {
    String first = h.runPod(PipelineHarness.podConfig("web", "uid-web", 0), h.relay());
    String app = h.createAndStart(first, "app");
    h.runtime().exitContainer(app, 0);
    String second = h.runPod(PipelineHarness.podConfig("web", "uid-web", 1), h.relay());
    h.create(second, "app");
    h.create(second, "app", 1);

    ILoggingEvent pod = line("re-creation of pod default/web");
    assertEquals("cri-pipeline", pod.getThreadName());
    assertEquals(
        Map.of(RequestConverter.METHOD, "RunPodSandbox", RequestConverter.POD, "default/web"),
        pod.getMDCPropertyMap());
    ILoggingEvent container = line("re-creation of container uid-web:app");
    assertEquals(
        Map.of(
            RequestConverter.METHOD,
            "CreateContainer",
            RequestConverter.POD,
            second.substring(0, RequestLog.ID_CHARS),
            RequestConverter.CONTAINER,
            "app"),
        container.getMDCPropertyMap());
    assertEquals(
        "CreateContainer pod=" + second.substring(0, 12) + " container=app: ",
        new RequestConverter().convert(container));
  }

  @Test
  void aRefusalIsLoggedWithTheRequestOnTheReplysThread() throws Exception {
    String pod = h.runPod("full");
    for (int i = 0; i < 8; i++) {
      h.create(pod, "c" + i);
    }
    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> h.create(pod, "c8"));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    ILoggingEvent refused = line("CreateContainer refused");
    assertEquals("CreateContainer", refused.getMDCPropertyMap().get(RequestConverter.METHOD));
    assertEquals("c8", refused.getMDCPropertyMap().get(RequestConverter.CONTAINER));
  }
}
