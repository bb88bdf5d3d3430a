package io.criresmgr.proxy.config;

import java.util.Objects;

/**
 * Section {@code dump}: which CRI messages are logged and where (docs/configuration.md, section
 * {@code dump}).
 *
 * @param config dump rules, comma-separated {@code [off|name|full:]regex}
 * @param file also write dumps to this file; empty for none
 * @param debug log dumps at debug level (source {@code message}) instead of info
 * @param disabled disable dumping altogether
 */
public record DumpConfig(String config, String file, boolean debug, boolean disabled) {
  /** cri-resmgr's default rules: replies of resource-relevant calls by name, images never. */
  public static final String DEFAULT_RULES =
      "off:.*,short:((Create)|(Start)|(Run)|(Update)|(Stop)|(Remove)).*,off:.*Image.*";

  /** Checks for nulls. */
  public DumpConfig {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(file, "file");
  }

  /** Defaults of cri-resmgr. */
  public static DumpConfig defaults() {
    return new DumpConfig(DEFAULT_RULES, "", false, false);
  }
}
