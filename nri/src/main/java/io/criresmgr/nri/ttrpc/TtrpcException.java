package io.criresmgr.nri.ttrpc;

/** A ttrpc call or connection failed; {@link #code()} is the gRPC status code it maps to. */
public class TtrpcException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The gRPC status codes ttrpc uses (google.rpc.Code numbers). */
  public enum Code {
    OK(0),
    CANCELLED(1),
    UNKNOWN(2),
    INVALID_ARGUMENT(3),
    DEADLINE_EXCEEDED(4),
    NOT_FOUND(5),
    RESOURCE_EXHAUSTED(8),
    UNIMPLEMENTED(12),
    INTERNAL(13),
    UNAVAILABLE(14);

    private final int value;

    Code(int value) {
      this.value = value;
    }

    /** The number on the wire. */
    public int value() {
      return value;
    }

    /** The code for a wire number; numbers we do not name map to {@link #UNKNOWN}. */
    public static Code of(int value) {
      for (Code code : values()) {
        if (code.value == value) {
          return code;
        }
      }
      return UNKNOWN;
    }
  }

  private final Code code;
  private final String detail;

  /** A failure with a status code and a message saying what went wrong. */
  public TtrpcException(Code code, String message) {
    super(code + ": " + message);
    this.code = code;
    this.detail = message;
  }

  /** A failure with a status code, a message and its cause. */
  public TtrpcException(Code code, String message, Throwable cause) {
    super(code + ": " + message, cause);
    this.code = code;
    this.detail = message;
  }

  /** The message without the code: what a response's status carries. */
  public String detail() {
    return detail;
  }

  /** The status code. */
  public Code code() {
    return code;
  }
}
