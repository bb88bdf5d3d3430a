package io.criresmgr.webhook.tls;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The little ASN.1 DER this package needs to turn PKCS#1 and SEC1 keys into PKCS#8: reading the
 * elements of a SEQUENCE and writing definite-length elements.
 */
final class Der {
  static final int INTEGER = 0x02;
  static final int OCTET_STRING = 0x04;
  static final int NULL = 0x05;
  static final int OID = 0x06;
  static final int SEQUENCE = 0x30;
  static final int CONTEXT_0 = 0xA0;

  private Der() {}

  /**
   * One element of {@code data}: its tag, where its content starts, and the content's length.
   *
   * @param tag the identifier octet
   * @param start the offset of the identifier octet
   * @param contentStart the offset of the first content octet
   * @param end the offset just past the content
   */
  record Element(int tag, int start, int contentStart, int end) {
    byte[] encoded(byte[] data) {
      return Arrays.copyOfRange(data, start, end);
    }
  }

  /** The element at {@code offset} of {@code data}, bounds-checked. */
  static Element read(byte[] data, int offset) {
    if (offset + 2 > data.length) {
      throw malformed();
    }
    int tag = data[offset] & 0xff;
    int first = data[offset + 1] & 0xff;
    int at = offset + 2;
    long length = first;
    if (first > 0x80 && first <= 0x84) {
      length = 0;
      for (int i = 0; i < first - 0x80; i++, at++) {
        if (at >= data.length) {
          throw malformed();
        }
        length = (length << 8) | (data[at] & 0xff);
      }
    } else if (first >= 0x80) {
      throw malformed(); // indefinite or over-long lengths are not DER keys
    }
    if (at + length > data.length) {
      throw malformed();
    }
    return new Element(tag, offset, at, (int) (at + length));
  }

  /** The elements inside {@code parent}, which must be a SEQUENCE. */
  static List<Element> children(byte[] data, Element parent) {
    if (parent.tag() != SEQUENCE) {
      throw malformed();
    }
    List<Element> children = new ArrayList<>();
    for (int at = parent.contentStart(); at < parent.end(); ) {
      Element child = read(data, at);
      children.add(child);
      at = child.end();
    }
    return children;
  }

  /** The DER encoding of an element with {@code tag} whose content is {@code parts} in order. */
  static byte[] encode(int tag, byte[]... parts) {
    ByteArrayOutputStream content = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      content.writeBytes(part);
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(tag);
    int length = content.size();
    if (length < 0x80) {
      out.write(length);
    } else {
      int bytes = (Integer.SIZE - Integer.numberOfLeadingZeros(length) + 7) / 8;
      out.write(0x80 | bytes);
      for (int i = bytes - 1; i >= 0; i--) {
        out.write(length >>> (8 * i));
      }
    }
    out.writeBytes(content.toByteArray());
    return out.toByteArray();
  }

  private static IllegalArgumentException malformed() {
    return new IllegalArgumentException("malformed DER");
  }
}
