package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.api.runtime.v1.StatusRequest;
import io.criresmgr.api.runtime.v1.StopContainerRequest;
import io.criresmgr.api.runtime.v1.VersionRequest;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.DumpConfig;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.proxy.relay.RecordingBackend;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metrics on HTTP and the message dump of a real daemon, including reconfiguration. */
class ObservabilityIT {
  @TempDir Path dir;
  private RecordingBackend backend;
  private Daemon daemon;
  private ConfigStore store;
  private RawClient client;

  @BeforeEach
  void start() throws Exception {
    backend = new RecordingBackend(dir.resolve("runtime.sock")).start();
    store = new ConfigStore(withDump(TestDaemons.config(), "full:.*", dir.resolve("dump.log")));
    daemon = Daemon.start(TestDaemons.options(dir, dir.resolve("runtime.sock"), false), store);
    client = new RawClient(dir.resolve("relay/cri-resmgr.sock"));
  }

  @AfterEach
  void stop() {
    client.close();
    daemon.close();
    backend.close();
  }

  private static Config withDump(Config c, String rules, Path file) {
    return new Config(
        c.policy(),
        c.resourceManager(),
        new DumpConfig(rules, file.toString(), false, false),
        c.logger(),
        c.instrumentation(),
        c.controllerSections());
  }

  private String scrape() throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + daemon.metricsPort() + "/metrics"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode());
    return response.body();
  }

  @Test
  void countsCallsErrorsAndSplitsLatency() throws Exception {
    var stub = RuntimeServiceGrpc.newBlockingStub(client.channel());
    stub.version(VersionRequest.getDefaultInstance());
    stub.version(VersionRequest.getDefaultInstance());
    backend.script(
        "runtime.v1.RuntimeService/Status",
        new RecordingBackend.Reply(
            List.of(), Status.UNAVAILABLE.withDescription("down"), new Metadata(), new Metadata()));
    assertThrows(
        StatusRuntimeException.class, () -> stub.status(StatusRequest.getDefaultInstance()));

    String text = scrape();
    assertTrue(
        text.contains(
            "cri_requests_total{code=\"OK\",method=\"Version\",service=\"RuntimeService\"} 2.0"),
        text);
    assertTrue(
        text.contains(
            "cri_request_errors_total{code=\"UNAVAILABLE\",method=\"Status\",service=\"RuntimeService\"} 1.0"),
        text);
    assertTrue(
        text.contains(
            "cri_request_latency_seconds_count{method=\"Version\",part=\"runtime\",service=\"RuntimeService\"} 2"),
        text);
    assertTrue(
        text.contains(
            "cri_request_latency_seconds_count{method=\"Version\",part=\"proxy\",service=\"RuntimeService\"} 2"),
        text);
    assertTrue(
        text.contains(
            "cri_request_latency_seconds_bucket{method=\"Version\",part=\"runtime\",service=\"RuntimeService\",le=\"10.0\"} 2"),
        text);
  }

  @Test
  void servesJvmAndProcessMetricsOnceStarted() throws Exception {
    String text = scrape();
    assertTrue(text.contains("jvm_memory_used_bytes{"), text);
    assertTrue(text.contains("jvm_threads_live_threads "), text);
    assertTrue(text.contains("process_uptime_seconds "), text);
    assertTrue(text.contains("system_cpu_count "), text);
  }

  @Test
  void dumpsRequestsRepliesAndFailuresToTheFile() throws Exception {
    var stub = RuntimeServiceGrpc.newBlockingStub(client.channel());
    stub.version(VersionRequest.newBuilder().setVersion("0.1.0").build());
    backend.script(
        "runtime.v1.RuntimeService/Status",
        new RecordingBackend.Reply(
            List.of(), Status.NOT_FOUND.withDescription("nope"), new Metadata(), new Metadata()));
    assertThrows(
        StatusRuntimeException.class, () -> stub.status(StatusRequest.getDefaultInstance()));

    List<String> lines = awaitLines(dir.resolve("dump.log"), 4);
    assertTrue(
        lines
            .get(0)
            .matches(
                "\\[\\d{4}-\\w{3}-\\d\\d [\\d:.]+\\] Version => \\(passthrough\\) REQUEST version: \"0.1.0\""),
        lines.get(0));
    assertTrue(
        lines.stream()
            .anyMatch(
                l -> l.matches("\\[ +\\+\\d+\\.\\d{6}\\] Version <= \\(passthrough\\) REPLY")),
        String.join("\n", lines));
    assertTrue(
        lines.stream().anyMatch(l -> l.endsWith("Version <=     runtime_name: \"containerd\"")),
        String.join("\n", lines));
    assertTrue(
        lines.stream().anyMatch(l -> l.endsWith("Status <= (passthrough) FAILED")),
        String.join("\n", lines));
    assertTrue(
        lines.stream().anyMatch(l -> l.endsWith("Status <=     NOT_FOUND: nope")),
        String.join("\n", lines));
  }

  @Test
  void dumpsInterceptedRequestsAsTheClientSentThem() throws Exception {
    var stub = RuntimeServiceGrpc.newBlockingStub(client.channel());
    stub.stopContainer(
        StopContainerRequest.newBuilder().setContainerId("abc").setTimeout(3).build());

    List<String> lines = awaitLines(dir.resolve("dump.log"), 4);
    String all = String.join("\n", lines);
    assertTrue(
        lines.stream().anyMatch(l -> l.endsWith("StopContainer => (intercepted) REQUEST")), all);
    assertTrue(
        lines.stream().anyMatch(l -> l.endsWith("StopContainer =>     container_id: \"abc\"")),
        all);
    assertTrue(lines.stream().anyMatch(l -> l.endsWith("StopContainer =>     timeout: 3")), all);
    assertTrue(
        lines.stream().anyMatch(l -> l.endsWith("StopContainer <= (intercepted) REPLY {}")), all);
  }

  @Test
  void reconfiguresTheDumpAndRollsBackABadConfiguration() throws Exception {
    Path second = dir.resolve("second.log");
    store.update(withDump(store.current(), "off:.*,name:Version", second));
    var stub = RuntimeServiceGrpc.newBlockingStub(client.channel());
    stub.version(VersionRequest.getDefaultInstance());
    stub.status(StatusRequest.getDefaultInstance());
    List<String> lines = awaitLines(second, 1);
    assertEquals(1, lines.size(), String.join("\n", lines));
    assertTrue(lines.get(0).endsWith("Version <= (passthrough) REPLY"), lines.get(0));

    Files.writeString(dir.resolve("blocker"), "a file where a directory should be");
    Config bad = withDump(store.current(), "full:.*", dir.resolve("blocker/dump.log"));
    ConfigException e = assertThrows(ConfigException.class, () -> store.update(bad));
    assertTrue(e.getMessage().startsWith("configuration rejected: "), e.getMessage());
    assertEquals(second.toString(), store.current().dump().file(), "previous config stays active");
    assertTrue(e.getMessage().contains("cannot open dump file"), e.getMessage());
    stub.version(VersionRequest.getDefaultInstance());
    assertEquals(2, awaitLines(second, 2).size(), "the previous dump file is written again");
  }

  private static List<String> awaitLines(Path file, int atLeast) throws Exception {
    for (int i = 0; i < 100; i++) {
      if (Files.exists(file)) {
        List<String> lines = Files.readAllLines(file);
        if (lines.size() >= atLeast) {
          Thread.sleep(100); // let a late reply line land
          return Files.readAllLines(file);
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("dump file " + file + " has fewer than " + atLeast + " lines");
  }
}
