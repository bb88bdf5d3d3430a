package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.criresmgr.api.runtime.v1.ContainerConfig;
import io.criresmgr.api.runtime.v1.ContainerMetadata;
import io.criresmgr.api.runtime.v1.CreateContainerRequest;
import io.criresmgr.api.runtime.v1.ImageSpec;
import io.criresmgr.api.runtime.v1.LinuxContainerConfig;
import io.criresmgr.api.runtime.v1.LinuxContainerResources;
import io.criresmgr.api.runtime.v1.LinuxPodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxConfig;
import io.criresmgr.api.runtime.v1.PodSandboxMetadata;
import io.criresmgr.api.runtime.v1.RemoveContainerRequest;
import io.criresmgr.api.runtime.v1.RunPodSandboxRequest;
import io.criresmgr.api.runtime.v1.RuntimeServiceGrpc;
import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.FakeSysfsWriter;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.criresmgr.proxy.DaemonOptions;
import io.criresmgr.proxy.TestDaemons;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigStore;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.daemon.Daemon;
import io.criresmgr.proxy.relay.RawClient;
import io.criresmgr.sim.SimOptions;
import io.criresmgr.sim.SimRuntime;
import io.criresmgr.sim.SimRuntimeServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live view in a real browser (Debian's chromium through chromium-driver, headless;
 * docs/ui.md): a daemon with topology-aware on a fake host of 2 NUMA nodes of 4 CPUs, in front of
 * the simulated runtime. A container created through the relay appears on the CPUs it was given,
 * and disappears when removed, without a reload. Writes a screenshot to {@code target/ui/node.png}.
 */
class NodeViewBrowserIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path dir;
  private SimRuntimeServer sim;
  private Daemon daemon;
  private ChromeDriver browser;

  @BeforeEach
  void start() throws Exception {
    Path host = dir.resolve("host");
    FakeSysfsWriter.write(TopologySpec.parse("[{mem: 2G, cores: 2, nodes: 2}]"), host);
    sim =
        new SimRuntimeServer(
                dir.resolve("rt.sock"),
                new SimRuntime(SimOptions.defaults().withImages(List.of("busybox"))))
            .start();
    daemon = Daemon.start(options(host), new ConfigStore(topologyAware()));
    browser = browser();
  }

  @AfterEach
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (daemon != null) {
      daemon.close();
    }
    if (sim != null) {
      sim.close();
    }
  }

  @Test
  void showsTheNodeAndFollowsContainersWithoutAReload() throws Exception {
    browser.get(url("/ui"));
    await("the topology drawn", () -> cpuCells().size() == 8);
    assertEquals("topology-aware", browser.findElement(By.id("policy")).getText());
    assertEquals(2, browser.findElements(By.cssSelector("details.numa")).size());
    assertEquals("reserved", cell(0).getDomAttribute("data-set"), "the reserved CPU");
    ((JavascriptExecutor) browser).executeScript("window.sameDocument = true;");

    try (RawClient client = new RawClient(dir.resolve("relay/cri-resmgr.sock"))) {
      var rt =
          RuntimeServiceGrpc.newBlockingStub(client.channel())
              .withDeadlineAfter(10, TimeUnit.SECONDS);
      String id = createTwoCpuContainer(rt);
      CpuSet given = CpuSet.parse(assignedCpus("uid-0:c0"));
      assertEquals(2, given.size(), "two exclusive CPUs: " + given);
      await("the container on its CPUs", () -> chipCpus("uid-0:c0").equals(given));
      assertEquals(
          1,
          browser.findElements(By.cssSelector("details.numa")).stream()
              .filter(n -> !n.findElements(chipOf("uid-0:c0")).isEmpty())
              .count(),
          "its CPUs are in one NUMA node");
      assertTrue(hover("uid-0:c0").contains("QoS Guaranteed"), "the tooltip");
      screenshot();

      rt.removeContainer(RemoveContainerRequest.newBuilder().setContainerId(id).build());
      await("the container gone", () -> chipCpus("uid-0:c0").isEmpty());
      assertEquals(
          Boolean.TRUE,
          ((JavascriptExecutor) browser).executeScript("return window.sameDocument;"),
          "updated without reloading the page");
    }
  }

  private ChromeDriver browser() {
    assertTrue(
        Files.isExecutable(CHROMIUM) && Files.isExecutable(DRIVER),
        CHROMIUM
            + " and "
            + DRIVER
            + " are needed: apt-get install -y chromium chromium-driver (.ci/run installs them)");
    ChromeOptions options = new ChromeOptions();
    options.setBinary(CHROMIUM.toFile());
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--window-size=1400,900");
    ChromeDriverService service =
        new ChromeDriverService.Builder().usingDriverExecutable(DRIVER.toFile()).build();
    return new ChromeDriver(service, options);
  }

  private List<WebElement> cpuCells() {
    return browser.findElements(By.cssSelector("#node .cpu[data-cpu]"));
  }

  private WebElement cell(int cpu) {
    return browser.findElement(By.cssSelector("#node [data-cpu='" + cpu + "']"));
  }

  private static By chipOf(String cacheId) {
    return By.cssSelector(".chip[data-container='" + cacheId + "']");
  }

  /** The CPUs whose cells show the container's chip. */
  private CpuSet chipCpus(String cacheId) {
    return CpuSet.of(
        cpuCells().stream()
            .filter(c -> !c.findElements(chipOf(cacheId)).isEmpty())
            .map(c -> Integer.parseInt(c.getDomAttribute("data-cpu")))
            .collect(Collectors.toList()));
  }

  private String hover(String cacheId) {
    new org.openqa.selenium.interactions.Actions(browser)
        .moveToElement(browser.findElement(chipOf(cacheId)))
        .perform();
    await("the tooltip", () -> browser.findElement(By.id("tip")).isDisplayed());
    return browser.findElement(By.id("tip")).getText();
  }

  private void await(String what, java.util.function.BooleanSupplier condition) {
    new WebDriverWait(browser, DEADLINE)
        .withMessage(what)
        .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
        .until(b -> condition.getAsBoolean());
  }

  private void screenshot() throws Exception {
    Path png = Path.of("target/ui/node.png");
    Files.createDirectories(png.getParent());
    Files.write(png, browser.getScreenshotAs(OutputType.BYTES));
  }

  /** The container's CPUs as the daemon's model has them. */
  private String assignedCpus(String cacheId) throws Exception {
    JsonNode model = new ObjectMapper().readTree(get("/ui/node.json"));
    for (JsonNode pod : model.get("pods")) {
      for (JsonNode c : pod.get("containers")) {
        if (c.get("cacheId").asText().equals(cacheId)) {
          return c.get("cpus").asText();
        }
      }
    }
    throw new AssertionError(cacheId + " is not in the model: " + model);
  }

  private String get(String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(url(path))).build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return response.body();
  }

  private String url(String path) {
    return "http://127.0.0.1:" + daemon.metricsPort() + path;
  }

  private static String createTwoCpuContainer(RuntimeServiceGrpc.RuntimeServiceBlockingStub rt) {
    PodSandboxConfig pod =
        PodSandboxConfig.newBuilder()
            .setMetadata(
                PodSandboxMetadata.newBuilder()
                    .setName("pod0")
                    .setNamespace("default")
                    .setUid("uid-0"))
            .setLinux(LinuxPodSandboxConfig.newBuilder().setCgroupParent("/kubepods/poduid-0"))
            .build();
    String podId =
        rt.runPodSandbox(RunPodSandboxRequest.newBuilder().setConfig(pod).build())
            .getPodSandboxId();
    LinuxContainerResources twoCpus =
        LinuxContainerResources.newBuilder()
            .setCpuShares(2048)
            .setCpuQuota(200000)
            .setCpuPeriod(100000)
            .setMemoryLimitInBytes(256L << 20)
            .build();
    return rt.createContainer(
            CreateContainerRequest.newBuilder()
                .setPodSandboxId(podId)
                .setSandboxConfig(pod)
                .setConfig(
                    ContainerConfig.newBuilder()
                        .setMetadata(ContainerMetadata.newBuilder().setName("c0"))
                        .setImage(ImageSpec.newBuilder().setImage("busybox"))
                        .setLinux(LinuxContainerConfig.newBuilder().setResources(twoCpus)))
                .build())
        .getContainerId();
  }

  private DaemonOptions options(Path host) {
    DaemonOptions o = TestDaemons.options(dir, sim.socket(), false);
    return new DaemonOptions(
        o.runtimeSocket(),
        o.imageSocket(),
        o.relaySocket(),
        o.relayDir(),
        o.forceConfig(),
        o.fallbackConfig(),
        o.forceConfigSignal(),
        host,
        o.cgroupMount(),
        o.pidFile(),
        true);
  }

  private static Config topologyAware() {
    Config c = TestDaemons.config();
    return new Config(
        new PolicyConfig("topology-aware", Map.of(), Map.of("CPU", "cpuset:0"), Map.of()),
        c.resourceManager(),
        c.dump(),
        c.logger(),
        c.instrumentation(),
        c.controllerSections());
  }
}
