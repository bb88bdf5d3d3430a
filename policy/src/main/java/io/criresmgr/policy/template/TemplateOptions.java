package io.criresmgr.policy.template;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.OptionsReader;
import io.criresmgr.policy.PolicyOptions;
import java.util.List;

/**
 * The options of the template policy, section {@code policy.template}.
 *
 * <p>A policy's options are an immutable record parsed once by its provider; the policy never sees
 * raw JSON. Parsing is strict, so a typo is an error that names the key instead of a silently
 * ignored setting.
 *
 * @param exclusiveCpus {@code ExclusiveCpus}: whether containers whose CPU request equals their
 *     limit and is a whole number of CPUs get exclusive CPUs (default true); with false every
 *     container shares all allowed CPUs
 */
public record TemplateOptions(boolean exclusiveCpus) implements PolicyOptions {
  /** The options when {@code policy.template} is absent or empty. */
  public static final TemplateOptions DEFAULTS = new TemplateOptions(true);

  /** Option key of {@link #exclusiveCpus}. */
  public static final String EXCLUSIVE_CPUS = "ExclusiveCpus";

  /**
   * Parses section {@code policy.template}.
   *
   * @throws io.criresmgr.policy.PolicyException naming {@code policy.template.<key>}, the value and
   *     what is allowed
   */
  public static TemplateOptions parse(JsonNode section) {
    OptionsReader reader =
        OptionsReader.of(TemplatePolicyProvider.NAME, section, List.of(EXCLUSIVE_CPUS));
    return new TemplateOptions(reader.bool(EXCLUSIVE_CPUS, DEFAULTS.exclusiveCpus()));
  }
}
