package io.criresmgr.cache;

/** The cache module's exception root: the cache file cannot be written or read. */
public class CacheException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Without message. */
  public CacheException() {}

  /** With a message. */
  public CacheException(String message) {
    super(message);
  }

  /** With a message and a cause. */
  public CacheException(String message, Throwable cause) {
    super(message, cause);
  }

  /** With a cause. */
  public CacheException(Throwable cause) {
    super(cause);
  }
}
