package io.criresmgr.simulator;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code cri-resmgr show [--endpoint URL] [--why CONTAINER]}: reads {@code /ui/node.json} from a
 * running daemon and prints the node as {@code cri-resmgr simulate} prints a simulated one, or with
 * {@code --why} the policy's explanation of one container's placement or refusal ({@link
 * WhyReport}, docs/ui.md). Exit status 0, or 1 when the model cannot be read or the container is
 * unknown.
 */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    description =
        "Print a running daemon's node (its /ui/node.json) as the simulator's tables: where every"
            + " container runs, per NUMA node, and the balloons; or why one container is where"
            + " it is (--why).")
public final class ShowCommand implements Callable<Integer> {
  /** Exit status when the model cannot be read. */
  public static final int FAILED = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  @Option(
      names = "--endpoint",
      paramLabel = "URL",
      description =
          "The daemon's HTTP endpoint (instrumentation.HTTPEndpoint); default ${DEFAULT-VALUE}.")
  private String endpoint = "http://localhost:8891";

  @Option(
      names = "--why",
      paramLabel = "CONTAINER",
      description =
          "Print why the policy placed (or refused) this container instead: a container name, id"
              + " (or a prefix), pod/container or namespace/pod/container.")
  private String why = "";

  @Spec private CommandSpec spec = CommandSpec.create();

  /** Prints the node; returns the exit status. */
  @Override
  public Integer call() throws InterruptedException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    URI uri;
    try {
      uri = URI.create(endpoint.replaceAll("/+$", "") + "/ui/node.json");
    } catch (IllegalArgumentException e) {
      err.println("show: --endpoint " + endpoint + ": not a URL: " + e.getMessage());
      return FAILED;
    }
    try {
      JsonNode fetched = fetch(uri);
      ModelNode node = ModelNode.of(fetched);
      if (!why.isEmpty()) {
        return why(fetched, out, err);
      }
      JsonNode model = node.observed().introspection();
      out.printf(
          "== node at %s (policy %s, version %s)%n",
          endpoint, model.path("policy").asText(), model.path("version").asText());
      out.print(PlacementReport.format(node.observed(), node.topology()));
      out.flush();
      return 0;
    } catch (IOException | IllegalArgumentException e) {
      err.println("show: " + uri + ": " + e.getMessage());
      return FAILED;
    }
  }

  private int why(JsonNode model, PrintWriter out, PrintWriter err) {
    try {
      WhyReport.lines(model, why).forEach(out::println);
      out.flush();
      return 0;
    } catch (IllegalArgumentException e) {
      err.println("show --why: " + e.getMessage() + " at " + endpoint);
      return FAILED;
    }
  }

  private static JsonNode fetch(URI uri) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build();
    HttpResponse<String> response;
    try {
      response =
          HttpClient.newBuilder()
              .connectTimeout(Duration.ofSeconds(10))
              .build()
              .send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IOException("cannot read the node model: " + e, e);
    }
    if (response.statusCode() != 200) {
      throw new IOException(
          "HTTP " + response.statusCode() + ": " + response.body().lines().findFirst().orElse(""));
    }
    try {
      return JSON.readTree(response.body());
    } catch (JsonProcessingException e) {
      throw new IOException("not JSON: " + e.getOriginalMessage(), e);
    }
  }
}
