package io.criresmgr.agent.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Node;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A tiny Kubernetes API server over real HTTP for ConfigMaps and Adjustments of one namespace and
 * Nodes: list (with a {@code metadata.name} field selector), {@code ?watch=true} (chunked, one JSON
 * event per line, replaying events after the requested resource version), and the merge patch of an
 * Adjustment's status. It can be stopped and restarted on the same port while its objects change,
 * as an API server that goes away and comes back.
 */
final class FakeApiServer implements AutoCloseable {
  private static final String END = "";

  private final String configMapsPath;
  private final String adjustmentsPath;
  private final List<String> statusPatches = new ArrayList<>();
  private int failPatchesWith;
  private int refusedStatusPatches;
  private final List<String> stalls = new ArrayList<>();
  private final Map<String, Integer> lists = new TreeMap<>();
  private int refuseWatchesWith;
  private final Map<String, Collection> collections = new TreeMap<>();
  private final List<Watcher> watchers = new ArrayList<>();
  private long version = 1;
  private int port;
  private @Nullable HttpServer server;
  private @Nullable ExecutorService executor;

  private record Event(long version, String name, String line) {}

  /** An open watch: the lines it has yet to send, END last. */
  private record Watcher(
      Collection collection, @Nullable String name, BlockingQueue<String> lines) {
    void offer(Collection from, Event event) {
      if (from == collection && (name == null || name.equals(event.name()))) {
        lines.add(event.line());
      }
    }
  }

  private static final class Collection {
    final Map<String, String> objects = new TreeMap<>();
    final List<Event> history = new ArrayList<>();
  }

  FakeApiServer(String namespace) {
    configMapsPath = "/api/v1/namespaces/" + namespace + "/configmaps";
    collections.put(configMapsPath, new Collection());
    collections.put("/api/v1/nodes", new Collection());
    adjustmentsPath = "/apis/criresmgr.intel.com/v1alpha1/namespaces/" + namespace + "/adjustments";
    collections.put(adjustmentsPath, new Collection());
  }

  /** Starts serving (on any free port the first time, on the same port after a stop). */
  synchronized void start() throws IOException {
    HttpServer created =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    executor = Executors.newCachedThreadPool();
    created.setExecutor(executor);
    created.createContext("/", this::handle);
    created.start();
    server = created;
    port = created.getAddress().getPort();
  }

  /** Drops every connection and stops listening; objects can still be changed. */
  void stop() {
    HttpServer stopping;
    ExecutorService threads;
    synchronized (this) {
      stopping = server;
      threads = executor;
      server = null;
      watchers.forEach(w -> w.lines().add(END));
      watchers.clear();
    }
    if (stopping != null && threads != null) {
      stopping.stop(0);
      threads.shutdownNow();
    }
  }

  @Override
  public void close() {
    stop();
  }

  synchronized String url() {
    return "http://127.0.0.1:" + port;
  }

  void putConfigMap(String name, Map<String, String> data) {
    V1ConfigMap map = new V1ConfigMap().metadata(new V1ObjectMeta().name(name)).data(data);
    put(configMapsPath, name, map, map.getMetadata());
  }

  void deleteConfigMap(String name) {
    delete(configMapsPath, name);
  }

  void putNode(String name, Map<String, String> labels) {
    V1Node node = new V1Node().metadata(new V1ObjectMeta().name(name).labels(labels));
    put("/api/v1/nodes", name, node, node.getMetadata());
  }

  private synchronized void put(String path, String name, Object object, V1ObjectMeta meta) {
    meta.setResourceVersion(Long.toString(++version));
    Collection collection = collections.get(path);
    String type = collection.objects.containsKey(name) ? "MODIFIED" : "ADDED";
    String json = JSON.serialize(object);
    collection.objects.put(name, json);
    publish(collection, name, type, json);
  }

  private synchronized void delete(String path, String name) {
    Collection collection = collections.get(path);
    String json = collection.objects.remove(name);
    if (json != null) {
      version++;
      publish(collection, name, "DELETED", json);
    }
  }

  private void publish(Collection collection, String name, String type, String json) {
    Event event = new Event(version, name, "{\"type\":\"" + type + "\",\"object\":" + json + "}");
    collection.history.add(event);
    watchers.forEach(w -> w.offer(collection, event));
  }

  /**
   * The next request for {@code path} is accepted and never answered (until the server stops), as
   * over a half-open connection.
   */
  synchronized void stallNext(String path) {
    stalls.add(path);
  }

  private synchronized boolean stalls(String path) {
    return stalls.remove(path);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      if (stalls(path)) {
        try {
          Thread.sleep(Long.MAX_VALUE); // stop() interrupts
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return;
      }
      if (isAdjustmentStatusPatch(exchange)) {
        patchAdjustmentStatus(exchange);
        return;
      }
      Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
      Collection collection;
      synchronized (this) {
        collection = collections.get(path);
      }
      if (collection == null) {
        if (!nodeRequest(exchange, path)) {
          exchange.sendResponseHeaders(404, -1);
        }
      } else if ("true".equals(query.get("watch"))) {
        int refuse = refuseWatchesWith();
        if (refuse != 0) {
          answer(exchange, refuse, status(refuse, "watch refused"));
        } else {
          watch(exchange, collection, query);
        }
      } else {
        countList(path);
        list(exchange, collection, selectedName(query));
      }
    }
  }

  private void list(HttpExchange exchange, Collection collection, @Nullable String name)
      throws IOException {
    String body;
    synchronized (this) {
      List<String> items =
          collection.objects.entrySet().stream()
              .filter(e -> name == null || e.getKey().equals(name))
              .map(Map.Entry::getValue)
              .toList();
      body =
          "{\"metadata\":{\"resourceVersion\":\""
              + version
              + "\"},\"items\":["
              + String.join(",", items)
              + "]}";
    }
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private void watch(HttpExchange exchange, Collection collection, Map<String, String> query)
      throws IOException {
    String name = selectedName(query);
    long since = Long.parseLong(query.getOrDefault("resourceVersion", "0"));
    Watcher watcher = new Watcher(collection, name, new LinkedBlockingQueue<>());
    synchronized (this) {
      collection.history.stream()
          .filter(e -> e.version() > since)
          .forEach(e -> watcher.offer(collection, e));
      watchers.add(watcher);
    }
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(200, 0); // chunked: one event per line, for as long as it runs
    OutputStream body = exchange.getResponseBody();
    try {
      for (String line = watcher.lines().take(); !line.equals(END); line = watcher.lines().take()) {
        body.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        body.flush();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      synchronized (this) {
        watchers.remove(watcher);
      }
    }
  }

  /** The name a {@code fieldSelector=metadata.name=<name>} selects, or null for all. */
  private static @Nullable String selectedName(Map<String, String> query) {
    String selector = query.get("fieldSelector");
    return selector != null && selector.startsWith("metadata.name=")
        ? selector.substring("metadata.name=".length())
        : null;
  }

  private static Map<String, String> query(@Nullable String raw) {
    Map<String, String> query = new TreeMap<>();
    if (raw != null) {
      for (String pair : raw.split("&", -1)) {
        if (pair.isEmpty()) {
          continue;
        }
        String[] kv = pair.split("=", 2);
        query.put(
            URLDecoder.decode(kv[0], StandardCharsets.UTF_8),
            kv.length > 1 ? URLDecoder.decode(kv[1], StandardCharsets.UTF_8) : "");
      }
    }
    return query;
  }

  /** Answers every new watch with HTTP {@code code} (0: serve watches again); lists still work. */
  synchronized void refuseWatches(int code) {
    refuseWatchesWith = code;
  }

  private synchronized int refuseWatchesWith() {
    return refuseWatchesWith;
  }

  private synchronized void countList(String path) {
    lists.merge(path, 1, Integer::sum);
  }

  /** How many watches are open. */
  synchronized int watchers() {
    return watchers.size();
  }

  /** How many lists of {@code path} were answered. */
  synchronized int lists(String path) {
    return lists.getOrDefault(path, 0);
  }

  private static void answer(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** Ends every open watch with an ERROR event (410: expired, as after etcd compaction). */
  void expireWatches() {
    failWatches(410, "too old resource version");
  }

  /** Ends every open watch with an ERROR event carrying a Status of {@code code}. */
  synchronized void failWatches(int code, String message) {
    String error =
        "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"apiVersion\":\"v1\","
            + "\"status\":\"Failure\",\"code\":"
            + code
            + ",\"message\":\""
            + message
            + "\"}}";
    watchers.forEach(
        w -> {
          w.lines().add(error);
          w.lines().add(END);
        });
    watchers.clear();
  }

  // ---- One Node: GET, and PATCH of the object and of its status (the agent's API and
  // annotations).

  private static final Pattern NODE_PATH = Pattern.compile("/api/v1/nodes/([^/]+)(/status)?");
  private @Nullable String nodeFailure;
  private int nodeFailureCode;
  private final List<String> nodePatchTypes = new ArrayList<>();

  /** The Node {@code name} as stored, or null if it does not exist. */
  synchronized @Nullable V1Node node(String name) {
    String json = collections.get("/api/v1/nodes").objects.get(name);
    return json == null ? null : JSON.deserialize(json, V1Node.class);
  }

  /** Answers every later GET and PATCH of a Node with HTTP {@code code} and {@code message}. */
  synchronized void failNodeRequests(int code, String message) {
    nodeFailureCode = code;
    nodeFailure = message;
  }

  /** Answers Node GETs and PATCHes normally again. */
  synchronized void healNodeRequests() {
    nodeFailure = null;
  }

  /** The content types of the Node PATCHes received so far. */
  synchronized List<String> nodePatchTypes() {
    return List.copyOf(nodePatchTypes);
  }

  /** Handles {@code /api/v1/nodes/<name>[/status]}; false if {@code path} is not one. */
  private boolean nodeRequest(HttpExchange exchange, String path) throws IOException {
    Matcher m = NODE_PATH.matcher(path);
    if (!m.matches()) {
      return false;
    }
    String name = m.group(1);
    String method = exchange.getRequestMethod();
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String type = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"));
    int[] code = {200};
    String answer;
    synchronized (this) {
      if (method.equals("PATCH")) {
        nodePatchTypes.add(type);
      }
      answer = nodeAnswer(name, method, type, body, code);
    }
    byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(code[0], bytes.length);
    exchange.getResponseBody().write(bytes);
    return true;
  }

  /** The body of the answer, its HTTP status in {@code code[0]}; applies a PATCH. */
  private String nodeAnswer(String name, String method, String type, String body, int[] code) {
    Collection nodes = collections.get("/api/v1/nodes");
    String stored = nodes.objects.get(name);
    String failure = nodeFailure;
    if (failure != null) {
      code[0] = nodeFailureCode;
      return status(nodeFailureCode, failure);
    }
    if (stored == null) {
      code[0] = 404;
      return status(404, "nodes \"" + name + "\" not found");
    }
    if (method.equals("GET")) {
      return stored;
    }
    if (!method.equals("PATCH")) {
      code[0] = 405;
      return status(405, method + " not supported");
    }
    JsonObject node = JsonParser.parseString(stored).getAsJsonObject();
    try {
      if (type.startsWith("application/json-patch+json")) {
        JsonPatching.apply(node, JsonParser.parseString(body).getAsJsonArray());
      } else if (type.startsWith("application/merge-patch+json")) {
        JsonPatching.merge(node, JsonParser.parseString(body).getAsJsonObject());
      } else {
        code[0] = 415;
        return status(415, "unsupported patch type " + type);
      }
    } catch (RuntimeException e) {
      code[0] = 422;
      return status(422, "cannot apply patch: " + e.getMessage());
    }
    node.getAsJsonObject("metadata").addProperty("resourceVersion", Long.toString(++version));
    String json = node.toString();
    nodes.objects.put(name, json);
    publish(nodes, name, "MODIFIED", json);
    return json;
  }

  private static String status(int code, String message) {
    JsonObject status = new JsonObject();
    status.addProperty("kind", "Status");
    status.addProperty("apiVersion", "v1");
    status.addProperty("status", "Failure");
    status.addProperty("message", message);
    status.addProperty("code", code);
    return status.toString();
  }

  // Adjustment custom resources: list, watch, and merge-patch of the status subresource.

  /** Creates or replaces the spec of Adjustment {@code name} (JSON); its status is kept. */
  synchronized void putAdjustment(String name, String specJson) {
    Collection collection = collections.get(adjustmentsPath);
    JsonObject object = new JsonObject();
    object.addProperty("apiVersion", "criresmgr.intel.com/v1alpha1");
    object.addProperty("kind", "Adjustment");
    JsonObject meta = new JsonObject();
    meta.addProperty("name", name);
    object.add("metadata", meta);
    object.add("spec", JsonParser.parseString(specJson));
    String old = collection.objects.get(name);
    if (old != null && JsonParser.parseString(old).getAsJsonObject().has("status")) {
      object.add("status", JsonParser.parseString(old).getAsJsonObject().get("status"));
    }
    storeAdjustment(name, object);
  }

  /** Stores {@code object} as Adjustment {@code name} with a new resource version; publishes it. */
  private void storeAdjustment(String name, JsonObject object) {
    Collection collection = collections.get(adjustmentsPath);
    object.getAsJsonObject("metadata").addProperty("resourceVersion", Long.toString(++version));
    String type = collection.objects.containsKey(name) ? "MODIFIED" : "ADDED";
    String json = object.toString();
    collection.objects.put(name, json);
    publish(collection, name, type, json);
  }

  /** The path of the Adjustments' list and watch. */
  String adjustmentsPath() {
    return adjustmentsPath;
  }

  void deleteAdjustment(String name) {
    delete(adjustmentsPath, name);
  }

  /** The stored Adjustment {@code name}, or null. */
  synchronized @Nullable JsonObject adjustment(String name) {
    String json = collections.get(adjustmentsPath).objects.get(name);
    return json == null ? null : JsonParser.parseString(json).getAsJsonObject();
  }

  /** The bodies of the status patches received, in order. */
  synchronized List<String> statusPatches() {
    return List.copyOf(statusPatches);
  }

  /** Answers status patches with HTTP {@code code} (0: apply them again). */
  synchronized void failStatusPatches(int code) {
    failPatchesWith = code;
  }

  /** How many status patches were answered with an error. */
  synchronized int refusedStatusPatches() {
    return refusedStatusPatches;
  }

  private boolean isAdjustmentStatusPatch(HttpExchange exchange) {
    String path = exchange.getRequestURI().getPath();
    return "PATCH".equals(exchange.getRequestMethod())
        && path.startsWith(adjustmentsPath + "/")
        && path.endsWith("/status");
  }

  private void patchAdjustmentStatus(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String name = path.substring(adjustmentsPath.length() + 1, path.length() - "/status".length());
    String type = exchange.getRequestHeaders().getFirst("Content-Type");
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String answer;
    int code;
    synchronized (this) {
      String json = collections.get(adjustmentsPath).objects.get(name);
      code =
          failPatchesWith != 0
              ? failPatchesWith
              : type == null || !type.startsWith("application/merge-patch+json")
                  ? 415
                  : json == null ? 404 : 200;
      answer = "{}";
      if (code != 200) {
        refusedStatusPatches++;
      }
      if (code == 200) {
        statusPatches.add(body);
        JsonObject object = JsonParser.parseString(json).getAsJsonObject();
        JsonElement patch = JsonParser.parseString(body).getAsJsonObject().get("status");
        JsonElement status =
            mergePatch(object.get("status"), patch == null ? JsonNull.INSTANCE : patch);
        object.remove("status");
        if (!status.isJsonNull()) {
          object.add("status", status);
        }
        storeAdjustment(name, object);
        answer = collections.get(adjustmentsPath).objects.get(name);
      }
    }
    byte[] bytes = answer.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(code, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  /** RFC 7386: a patch object merges member by member, null removes, anything else replaces. */
  static JsonElement mergePatch(@Nullable JsonElement target, JsonElement patch) {
    if (!patch.isJsonObject()) {
      return patch;
    }
    JsonObject result =
        target != null && target.isJsonObject()
            ? target.getAsJsonObject().deepCopy()
            : new JsonObject();
    for (Map.Entry<String, JsonElement> e : patch.getAsJsonObject().entrySet()) {
      if (e.getValue().isJsonNull()) {
        result.remove(e.getKey());
      } else {
        result.add(e.getKey(), mergePatch(result.get(e.getKey()), e.getValue()));
      }
    }
    return result;
  }
}
