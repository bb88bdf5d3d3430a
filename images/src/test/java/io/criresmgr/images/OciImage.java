package io.criresmgr.images;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What an OCI image tarball written by jib ({@code index.json} and blobs) says about its single
 * image: the reference it is imported under, its manifest and its configuration.
 */
record OciImage(Path tarball, String refName, JsonNode manifest, JsonNode config) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_METADATA = 1 << 20;

  /** Reads the tarball; fails naming it if it is missing or not an OCI image layout. */
  static OciImage read(Path tarball) throws IOException {
    if (!Files.isRegularFile(tarball)) {
      throw new IOException(
          "no image tarball "
              + tarball
              + ": build it first (./mvnw package -pl command,agent,webhook -am)");
    }
    Map<String, byte[]> files = TarFiles.small(tarball, MAX_METADATA);
    JsonNode descriptor = json(files, tarball, "index.json").path("manifests").path(0);
    JsonNode manifest = json(files, tarball, blob(descriptor));
    JsonNode config = json(files, tarball, blob(manifest.path("config")));
    String ref = descriptor.path("annotations").path("org.opencontainers.image.ref.name").asText();
    return new OciImage(tarball, ref, manifest, config);
  }

  /** The process the image runs: its entrypoint. */
  List<String> entrypoint() {
    return strings(config.path("config").path("Entrypoint"));
  }

  /** The {@code uid:gid} it runs as. */
  String user() {
    return config.path("config").path("User").asText();
  }

  /** Its environment, {@code NAME=value} each. */
  List<String> env() {
    return strings(config.path("config").path("Env"));
  }

  /** The digests of its layers, base first. */
  List<String> layerDigests() {
    List<String> digests = new ArrayList<>();
    manifest.path("layers").forEach(layer -> digests.add(layer.path("digest").asText()));
    return digests;
  }

  private static String blob(JsonNode descriptor) {
    return "blobs/" + descriptor.path("digest").asText().replace(':', '/');
  }

  private static JsonNode json(Map<String, byte[]> files, Path tarball, String name)
      throws IOException {
    byte[] data = files.get(name);
    if (data == null) {
      throw new IOException(tarball + ": no " + name + " (not an OCI image layout tarball?)");
    }
    return JSON.readTree(data);
  }

  private static List<String> strings(JsonNode array) {
    List<String> values = new ArrayList<>();
    array.forEach(value -> values.add(value.asText()));
    return List.copyOf(values);
  }
}
