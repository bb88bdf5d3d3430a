package io.criresmgr.images;

import java.nio.file.Path;

/** The three images the build makes (docs/images.md) and what each must be. */
enum ImageUnderTest {
  DAEMON("images.daemon", "cri-resmgr", "io.criresmgr.command.Main", "0:0", "512m"),
  AGENT("images.agent", "cri-resmgr-agent", "io.criresmgr.agent.Main", "65534:65534", "128m"),
  WEBHOOK(
      "images.webhook", "cri-resmgr-webhook", "io.criresmgr.webhook.Main", "65534:65534", "128m");

  final String name;
  final String mainClass;
  final String user;
  final String heap;
  private final String tarballProperty;

  ImageUnderTest(String tarballProperty, String name, String mainClass, String user, String heap) {
    this.tarballProperty = tarballProperty;
    this.name = name;
    this.mainClass = mainClass;
    this.user = user;
    this.heap = heap;
  }

  /** The tarball jib wrote (module pom sets the path). */
  Path tarball() {
    return Path.of(property(tarballProperty));
  }

  /** The reference it is built and imported under: registry, name and the project version. */
  String reference() {
    return property("images.registry") + name + ":" + property("images.version");
  }

  static String property(String name) {
    String value = System.getProperty(name);
    if (value == null) {
      throw new IllegalStateException("system property " + name + " unset: run through Failsafe");
    }
    return value;
  }
}
