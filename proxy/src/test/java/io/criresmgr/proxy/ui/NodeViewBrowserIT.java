package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.criresmgr.cache.CpuSet;
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
 * docs/ui.md): a daemon with topology-aware on a fake host of 2 NUMA nodes of 4 CPUs, in front of
 * the simulated runtime. A container created through the relay appears on the CPUs it was given,
 * and disappears when removed, without a reload. Writes a screenshot to {@code target/ui/node.png}.
 */
class NodeViewBrowserIT {
  private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  private static final Path DRIVER = Path.of("/usr/bin/chromedriver");
  private static final Duration DEADLINE = Duration.ofSeconds(20);

  @TempDir Path dir;
  private ViewedDaemon node;
  private ChromeDriver browser;

  @BeforeEach
  void start() throws Exception {
    node = new ViewedDaemon(dir, "topology-aware");
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
        Boolean.TRUE,
        ((JavascriptExecutor) browser).executeScript("return window.sameDocument;"),
        "updated without reloading the page");
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

  /** The CPUs whose cells show the container's chip. */
  private CpuSet chipCpus(String cacheId) {
    return CpuSet.of(
        cpuCells().stream()
            .filter(c -> !c.findElements(chipOf(cacheId)).isEmpty())
            .map(c -> Integer.parseInt(c.getDomAttribute("data-cpu")))
            .toList());
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
