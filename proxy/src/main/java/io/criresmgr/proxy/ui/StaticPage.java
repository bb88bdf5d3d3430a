package io.criresmgr.proxy.ui;

import io.criresmgr.proxy.metrics.Route;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** A file of the view served from the jar (resources next to this class), read once. */
final class StaticPage {
  private StaticPage() {}

  /** The route of resource {@code name}, a text file of {@code contentType}. */
  static Route route(String name, String contentType) {
    String text = read(name);
    return new Route(contentType, () -> text, true);
  }

  /** The text of resource {@code name}. */
  static String read(String name) {
    try (InputStream in = StaticPage.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("resource " + name + " is missing from the jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
