package io.criresmgr.nri.ttrpc;

import java.util.Objects;

/**
 * One ttrpc message: the 10-byte header (length, stream id, type, flags; big-endian) and its
 * payload.
 */
@SuppressWarnings("ArrayRecordComponent") // frames live for one read or write; no copies
public record TtrpcFrame(int streamId, byte type, byte flags, byte[] payload) {
  /** A request (ttrpc's messageTypeRequest). */
  public static final byte REQUEST = 1;

  /** A response (messageTypeResponse). */
  public static final byte RESPONSE = 2;

  /** Stream data (messageTypeData); NRI never uses streams. */
  public static final byte DATA = 3;

  /** Checks the payload is there; the array is shared, not copied (frames are transient). */
  public TtrpcFrame {
    Objects.requireNonNull(payload, "payload");
  }
}
