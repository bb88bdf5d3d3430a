package io.criresmgr.agent.status;

import com.google.gson.GsonBuilder;
import com.google.gson.JsonObject;
import io.criresmgr.agent.push.ConfigStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * The Node annotations that show the daemon's verdict on the pushed configuration.
 *
 * @param source the ConfigMap the configuration came from, or {@value #FALLBACK}
 * @param error the daemon's rejection (at most {@value #MAX_ERROR} characters); empty if accepted
 */
public record ConfigAnnotations(String source, Optional<String> error) {
  /** The annotation naming where the pushed configuration came from. */
  public static final String SOURCE = "cri-resource-manager.intel.com/config-source";

  /** The annotation with the daemon's rejection; absent while the configuration is accepted. */
  public static final String ERROR = "cri-resource-manager.intel.com/config-error";

  /** The source of the empty configuration pushed when no ConfigMap applies. */
  public static final String FALLBACK = "fallback";

  /** The longest error kept in the annotation. */
  public static final int MAX_ERROR = 1000;

  // ChosenConfig.of names its source so.
  private static final String CONFIG_MAP = "ConfigMap ";

  /** Checks the error's length and that an error is not empty. */
  public ConfigAnnotations {
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(error, "error");
    if (error.isPresent() && (error.get().isEmpty() || error.get().length() > MAX_ERROR)) {
      throw new IllegalArgumentException("error must have 1 to " + MAX_ERROR + " characters");
    }
  }

  /** The annotations of an accepted or rejected {@code status} (not of a pending one). */
  public static ConfigAnnotations of(ConfigStatus status) {
    if (status.verdict() == ConfigStatus.Verdict.PENDING) {
      throw new IllegalArgumentException("no annotations while the status is pending");
    }
    String source =
        status.source().startsWith(CONFIG_MAP)
            ? status.source().substring(CONFIG_MAP.length())
            : FALLBACK;
    return new ConfigAnnotations(
        source, Optional.of(truncate(status.error())).filter(e -> !e.isEmpty()));
  }

  private static String truncate(String error) {
    if (error.length() <= MAX_ERROR) {
      return error;
    }
    int end = Character.isHighSurrogate(error.charAt(MAX_ERROR - 1)) ? MAX_ERROR - 1 : MAX_ERROR;
    return error.substring(0, end);
  }

  /** The JSON merge patch of the Node setting both annotations (a null value removes one). */
  public String mergePatch() {
    JsonObject annotations = new JsonObject();
    annotations.addProperty(SOURCE, source);
    annotations.addProperty(ERROR, error.orElse(null));
    JsonObject metadata = new JsonObject();
    metadata.add("annotations", annotations);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    return new GsonBuilder().serializeNulls().create().toJson(patch);
  }
}
