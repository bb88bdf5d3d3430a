package io.criresmgr.proxy.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/**
 * {@code --version} output in cri-resmgr's format. The version and build id come from {@code
 * version.properties}, filled in by Maven resource filtering ({@code -Dbuild.id=...} overrides the
 * build id, which defaults to the project's {@code project.build.outputTimestamp}, so that two
 * builds of one commit give identical jars).
 */
public final class VersionInfo implements IVersionProvider {
  private static final String RESOURCE = "/io/criresmgr/proxy/version.properties";

  @Override
  public String[] getVersion() {
    Properties p = properties();
    return new String[] {
      "cri-resmgr version information:",
      "  - version: " + p.getProperty("version", "unknown"),
      "  - build: " + p.getProperty("build", "unknown")
    };
  }

  /** The project version, e.g. {@code 0.1.0-SNAPSHOT}. */
  public static String version() {
    return properties().getProperty("version", "unknown");
  }

  private static Properties properties() {
    Properties p = new Properties();
    try (InputStream in = VersionInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
    return p;
  }
}
