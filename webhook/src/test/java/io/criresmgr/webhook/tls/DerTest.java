package io.criresmgr.webhook.tls;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DerTest {
  @Test
  void encodesShortAndLongLengthsAndReadsThemBack() {
    byte[] small = Der.encode(Der.OCTET_STRING, new byte[3]);
    assertArrayEquals(new byte[] {4, 3, 0, 0, 0}, small);
    byte[] big = Der.encode(Der.OCTET_STRING, new byte[300]);
    assertArrayEquals(new byte[] {4, (byte) 0x82, 1, 44}, java.util.Arrays.copyOf(big, 4));
    byte[] sequence = Der.encode(Der.SEQUENCE, small, big, Der.encode(Der.NULL));
    List<Der.Element> children = Der.children(sequence, Der.read(sequence, 0));
    assertEquals(3, children.size());
    assertEquals(300, children.get(1).end() - children.get(1).contentStart());
    assertArrayEquals(new byte[] {5, 0}, children.get(2).encoded(sequence));
  }

  @Test
  void refusesTruncatedAndIndefiniteElements() {
    assertThrows(IllegalArgumentException.class, () -> Der.read(new byte[] {4, 5, 0}, 0));
    assertThrows(IllegalArgumentException.class, () -> Der.read(new byte[] {0x30, (byte) 0x80}, 0));
    assertThrows(IllegalArgumentException.class, () -> Der.read(new byte[] {4}, 0));
  }
}
