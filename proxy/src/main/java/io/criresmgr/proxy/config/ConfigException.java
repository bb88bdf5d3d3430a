package io.criresmgr.proxy.config;

/** A configuration that cannot be read, parsed, validated or applied. */
public class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** With a message saying what is wrong and what is allowed. */
  public ConfigException(String message) {
    super(message);
  }

  /** With a message and its cause. */
  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
