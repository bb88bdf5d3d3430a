package io.criresmgr.proxy.ui;

/**
 * The view as one self-contained HTML file (docs/ui.md, "The same picture offline"): the live page
 * with its style, the model as {@code window.NODE_MODEL} and its script inline, so a browser draws
 * it from the file alone, without polling and without fetching anything.
 */
public final class OfflinePage {
  private static final String STYLE_LINK = "<link rel=\"stylesheet\" href=\"/ui/view.css\">";
  private static final String SCRIPT_TAG = "<script src=\"/ui/view.js\"></script>";

  private OfflinePage() {}

  /** The page drawing {@code modelJson}, a {@link NodeModel} as {@code /ui/node.json} writes it. */
  public static String html(String modelJson) {
    String page = StaticPage.read("index.html");
    return replaceOnce(
        replaceOnce(page, STYLE_LINK, "<style>\n" + StaticPage.read("view.css") + "</style>"),
        SCRIPT_TAG,
        "<script>window.NODE_MODEL = "
            + inScript(modelJson)
            + ";</script>\n<script>\n"
            + StaticPage.read("view.js")
            + "</script>");
  }

  /**
   * {@code json} safe inside a script element: {@code <} as its JSON escape, so no string in the
   * model (a pod's name, an annotation) can close the element.
   */
  static String inScript(String json) {
    return json.replace("<", "\\u003c");
  }

  private static String replaceOnce(String page, String tag, String inline) {
    int at = page.indexOf(tag);
    if (at < 0 || page.indexOf(tag, at + 1) >= 0) {
      throw new IllegalStateException("index.html must hold " + tag + " exactly once");
    }
    return page.substring(0, at) + inline + page.substring(at + tag.length());
  }
}
