package io.criresmgr.nri;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How a plugin connects: the runtime's NRI socket, the plugin's name and two-digit index (plugins
 * are called in ascending index order), and the deadlines of its own calls to the runtime.
 */
public record NriPluginOptions(
    Path socket, String name, String index, Duration registrationTimeout, Duration requestTimeout) {
  /** containerd's default NRI socket. */
  public static final Path DEFAULT_SOCKET = Path.of("/var/run/nri/nri.sock");

  private static final Pattern INDEX = Pattern.compile("[0-9]{2}");
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]*");

  /** Checks every field. */
  public NriPluginOptions {
    Objects.requireNonNull(socket, "socket");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(index, "index");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException(
          "NRI plugin name: '" + name + "' must be letters, digits, '_', '.' or '-'");
    }
    if (!INDEX.matcher(index).matches()) {
      throw new IllegalArgumentException(
          "NRI plugin index: '" + index + "' must be two digits, 00 to 99");
    }
    positive("registrationTimeout", registrationTimeout);
    positive("requestTimeout", requestTimeout);
  }

  /** Defaults: containerd's socket, 5 s to register and 2 s per call, as upstream's stub. */
  public static NriPluginOptions of(String name, String index) {
    return new NriPluginOptions(
        DEFAULT_SOCKET, name, index, Duration.ofSeconds(5), Duration.ofSeconds(2));
  }

  /** These options with another socket. */
  public NriPluginOptions withSocket(Path path) {
    return new NriPluginOptions(path, name, index, registrationTimeout, requestTimeout);
  }

  private static void positive(String field, Duration value) {
    Objects.requireNonNull(value, field);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(
          "NRI plugin " + field + ": " + value + " must be more than zero");
    }
  }
}
