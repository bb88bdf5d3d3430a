package io.criresmgr.webhook.tls;

import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One {@code -----BEGIN <type>-----} ... {@code -----END <type>-----} block of a PEM file (RFC
 * 7468), decoded.
 *
 * @param type the label, e.g. {@code CERTIFICATE} or {@code PRIVATE KEY}
 * @param encrypted true if the block has an RFC 1421 {@code Proc-Type: 4,ENCRYPTED} header
 * @param der the decoded content
 */
// The content is copied in and out and never compared: the array component is safe here.
@SuppressWarnings("ArrayRecordComponent")
public record PemBlock(String type, boolean encrypted, byte[] der) {
  private static final Pattern BEGIN = Pattern.compile("-----BEGIN ([^-]+)-----");

  /** Copies {@code der}. */
  public PemBlock {
    der = der.clone();
  }

  /** A copy of the decoded content. */
  @Override
  public byte[] der() {
    return der.clone();
  }

  /**
   * Every block in {@code text}, in order; text around the blocks (such as {@code openssl x509
   * -text} output) is ignored.
   *
   * @throws IllegalArgumentException for a block without its END line or with invalid base64
   */
  public static List<PemBlock> parse(String text) {
    List<PemBlock> blocks = new ArrayList<>();
    List<String> lines = text.lines().map(String::strip).toList();
    for (int i = 0; i < lines.size(); i++) {
      Matcher begin = BEGIN.matcher(lines.get(i));
      if (begin.matches()) {
        i = block(begin.group(1), lines, i + 1, blocks);
      }
    }
    return List.copyOf(blocks);
  }

  /** Reads the block of {@code type} starting at {@code from}; returns the index of its END. */
  private static int block(String type, List<String> lines, int from, List<PemBlock> out) {
    StringBuilder base64 = new StringBuilder();
    boolean encrypted = false;
    for (int i = from; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.equals("-----END " + type + "-----")) {
        out.add(new PemBlock(type, encrypted, decode(type, base64)));
        return i;
      }
      if (line.contains(":")) {
        encrypted |= line.startsWith("Proc-Type:") && line.contains("ENCRYPTED");
      } else {
        base64.append(line);
      }
    }
    throw new IllegalArgumentException("a " + type + " block has no END line");
  }

  private static byte[] decode(String type, CharSequence base64) {
    try {
      return Base64.getDecoder().decode(base64.toString());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "a " + type + " block is not valid base64: " + e.getMessage(), e);
    }
  }
}
