package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
import io.criresmgr.policy.sysfs.TopologySpec;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The live view in a real browser (Debian's chromium through chromium-driver, headless;
 * docs/ui.md), of daemons in front of the simulated runtime on fake hosts. Topology-aware on 2 NUMA
 * nodes of 4 CPUs: a container created through the relay appears on the CPUs it was given, coloured
 * by its pod, and disappears when removed, without a reload; a screenshot goes to {@code
 * target/ui/node.png}. Balloons on 4,096 CPUs: the packages start collapsed and what the user
 * opened stays open across updates. A refused container is listed with its reason, and a click on a
 * container shows why it is where it is, without a reload. A self-contained page embedding a model
 * is drawn from it.
 */
class NodeViewBrowserIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path dir;
  private ViewedDaemon node;
  private ChromeDriver browser;

  @BeforeEach
  void start() {
    browser = browser();
  }

  @AfterEach
  void stop() throws Exception {
    if (browser != null) {
      browser.quit();
    }
    if (node != null) {
      node.close();
    }
  }

  @Test
  void showsTheNodeAndFollowsContainersWithoutAReload() throws Exception {
    node = new ViewedDaemon(dir, "topology-aware");
    browser.get(node.url("/ui"));
    await("the topology drawn", () -> cpuCells().size() == 8);
    assertEquals("topology-aware", browser.findElement(By.id("policy")).getText());
    assertEquals(2, browser.findElements(By.cssSelector("details.numa")).size());
    assertEquals("reserved", cell(0).getDomAttribute("data-set"), "the reserved CPU");
    ((JavascriptExecutor) browser).executeScript("window.sameDocument = true;");

    String id = node.createContainer("pod0", 2);
    CpuSet given =
        CpuSet.parse(ViewedDaemon.container(node.model(), "uid-pod0:c0").get("cpus").asText());
    assertEquals(2, given.size(), "two exclusive CPUs: " + given);
    await("the container on its CPUs", () -> chipCpus("uid-pod0:c0").equals(given));
    assertEquals(
        1,
        browser.findElements(By.cssSelector("details.numa")).stream()
            .filter(n -> !n.findElements(chipOf("uid-pod0:c0")).isEmpty())
            .count(),
        "its CPUs are in one NUMA node");
    assertTrue(hover("uid-pod0:c0").contains("QoS Guaranteed"), "the tooltip");
    node.createContainer("pod1", 1);
    await("a second pod", () -> chipCpus("uid-pod1:c0").size() == 1);
    assertNotEquals(color("uid-pod0:c0"), color("uid-pod1:c0"), "coloured by pod");
    hover("uid-pod0:c0");
    screenshot();

    node.removeContainer(id);
    await("the container gone", () -> chipCpus("uid-pod0:c0").isEmpty());
    assertEquals(
        true,
        ((JavascriptExecutor) browser).executeScript("return window.sameDocument;"),
        "updated without reloading the page");
  }

  @Test
  void aRefusalAndAPlacementShowTheirReasonsWithoutAReload() throws Exception {
    node = new ViewedDaemon(dir, "topology-aware");
    browser.get(node.url("/ui"));
    await("the topology drawn", () -> cpuCells().size() == 8);
    ((JavascriptExecutor) browser).executeScript("window.sameDocument = true;");

    StatusRuntimeException e =
        assertThrows(StatusRuntimeException.class, () -> node.createContainer("big", 16));
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
    By refusal = By.cssSelector("#refusals [data-refusal='default/big/c0'] pre");
    await("the refusal listed", () -> !browser.findElements(refusal).isEmpty());
    String reason = browser.findElement(refusal).getText();
    assertTrue(
        reason.startsWith("refused: no pool has room for 16 exclusive CPUs"), "reason: " + reason);
    assertTrue(reason.contains("closest pool "), reason);
    assertTrue(reason.endsWith(e.getStatus().getDescription()), "the error kubelet got: " + reason);

    node.createContainer("pod0", 2);
    By container = By.cssSelector("#pods .container[data-container='uid-pod0:c0']");
    await("the container listed", () -> !browser.findElements(container).isEmpty());
    browser.findElement(container).click();
    By why = By.cssSelector("#why [data-why='uid-pod0:c0'] pre");
    await("its explanation", () -> !browser.findElements(why).isEmpty());
    String text = browser.findElement(why).getText();
    assertTrue(text.startsWith("pool NUMA node #"), text);
    assertTrue(text.contains(": chosen"), text);
    assertTrue(hover("uid-pod0:c0").contains("why: pool NUMA node #"), "the tooltip");
    assertEquals(
        true,
        ((JavascriptExecutor) browser).executeScript("return window.sameDocument;"),
        "updated without reloading the page");
  }

  @Test
  void levelsOf4096CpusStartCollapsedAndStaySoAcrossUpdates() throws Exception {
    node = new ViewedDaemon(dir, "balloons", TopologySpec.builtIn("s8c4096"));
    browser.get(node.url("/ui"));
    await("the topology drawn", () -> cpuCells().size() == 4096);
    List<WebElement> packages = browser.findElements(By.cssSelector("details.package"));
    assertEquals(8, packages.size());
    assertTrue(packages.stream().noneMatch(p -> p.getDomProperty("open").equals("true")));
    assertFalse(cell(0).isDisplayed(), "inside a closed package");
    packages.get(0).findElement(By.tagName("summary")).click();
    await("package 0 open", () -> cell(0).isDisplayed());

    node.createContainer("pod0", 2);
    CpuSet given =
        CpuSet.parse(ViewedDaemon.container(node.model(), "uid-pod0:c0").get("cpus").asText());
    await("the container drawn", () -> chipCpus("uid-pod0:c0").equals(given));
    assertTrue(cell(0).isDisplayed(), "package 0 still open after the update");
    assertFalse(cell(4095).isDisplayed(), "the last package still closed");
  }

  @Test
  void aPageWrittenOfflineDrawsItsEmbeddedModel() throws Exception {
    node = new ViewedDaemon(dir, "template");
    node.createContainer("pod0", 1);
    String model = node.get("/ui/node.json");
    Path page = dir.resolve("offline.html");
    // Self-contained, as cri-resmgr simulate --html writes it.
    Files.writeString(page, OfflinePage.html(model));
    node.close();
    node = null; // nothing left to fetch from
    browser.get(page.toUri().toString());
    await("the embedded model drawn", () -> cpuCells().size() == 8);
    assertEquals("template", browser.findElement(By.id("policy")).getText());
    assertEquals("snapshot", browser.findElement(By.id("status")).getText(), "no polling");
    assertEquals(1, chipCpus("uid-pod0:c0").size());
  }

  /** Debian's chromium, never one Selenium Manager would download (there is no network here). */
  private static ChromeDriver browser() {
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

  /** The CPUs whose cells show the container's chip (one script: 4,096 cells are many calls). */
  private CpuSet chipCpus(String cacheId) {
    List<?> ids =
        (List<?>)
            ((JavascriptExecutor) browser)
                .executeScript(
                    "return Array.from(document.querySelectorAll("
                        + "'#node [data-cpu] .chip[data-container=\"' + arguments[0] + '\"]'))"
                        + ".map(c => Number(c.closest('[data-cpu]').dataset.cpu));",
                    cacheId);
    return CpuSet.of(ids.stream().map(id -> ((Number) id).intValue()).toList());
  }

  private String color(String cacheId) {
    return browser.findElement(chipOf(cacheId)).getCssValue("background-color");
  }

  private String hover(String cacheId) {
    new Actions(browser).moveToElement(browser.findElement(chipOf(cacheId))).perform();
    await("the tooltip", () -> browser.findElement(By.id("tip")).isDisplayed());
    return browser.findElement(By.id("tip")).getText();
  }

  private void await(String what, BooleanSupplier condition) {
    new WebDriverWait(browser, DEADLINE)
        .withMessage(what)
        .ignoring(StaleElementReferenceException.class)
        .until(b -> condition.getAsBoolean());
  }

  private void screenshot() throws Exception {
    Path png = Path.of("target/ui/node.png");
    Files.createDirectories(png.getParent());
    Files.write(png, browser.getScreenshotAs(OutputType.BYTES));
  }
}
