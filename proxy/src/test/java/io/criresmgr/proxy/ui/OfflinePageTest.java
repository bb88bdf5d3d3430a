package io.criresmgr.proxy.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** {@link OfflinePage}: one file with the style, the model and the script inline. */
class OfflinePageTest {
  @Test
  void inlinesTheStyleTheModelAndTheScript() {
    String html = OfflinePage.html("{\"policy\":\"none\"}");
    assertTrue(html.contains(StaticPage.read("view.css")), "the style");
    assertTrue(html.contains(StaticPage.read("view.js")), "the script");
    assertTrue(
        html.indexOf("window.NODE_MODEL = {\"policy\":\"none\"};")
            < html.indexOf(StaticPage.read("view.js")),
        "the model before the script");
    assertFalse(html.contains("src="), html);
    assertFalse(html.contains("href="), html);
  }

  @Test
  void noStringInTheModelClosesItsScriptElement() throws Exception {
    String model = "{\"name\":\"</script><script>alert(1)</script>\"}";
    String html = OfflinePage.html(model);
    assertEquals(2, html.split("</script>", -1).length - 1, "only the two script elements close");
    String escaped = OfflinePage.inScript(model);
    assertEquals(new ObjectMapper().readTree(model), new ObjectMapper().readTree(escaped));
  }
}
