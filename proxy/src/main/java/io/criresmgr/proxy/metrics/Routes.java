package io.criresmgr.proxy.metrics;

import io.criresmgr.http.HttpHandler;
import io.criresmgr.http.Request;
import io.criresmgr.http.Response;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Serves {@code GET} and {@code HEAD} of a map of path to {@link Route}; the map can be replaced
 * while serving (a reload that changes who may read a page keeps the listening socket).
 */
final class Routes implements HttpHandler {
  private volatile Map<String, Route> routes;

  Routes(Map<String, Route> routes) {
    this.routes = Map.copyOf(routes);
  }

  void set(Map<String, Route> next) {
    routes = Map.copyOf(next);
  }

  @Override
  public Set<String> methods() {
    return Set.of("GET", "HEAD");
  }

  @Override
  public Response handle(Request request) {
    Route route = routes.get(request.path());
    if (route == null) {
      return Response.text(404, "no such page " + request.path() + "; try " + paths());
    }
    if (route.loopbackOnly() && !request.fromLoopback()) {
      return Response.text(
          403,
          request.path()
              + " is served to clients on this host only (set"
              + " instrumentation.RemoteIntrospection: true to allow others)");
    }
    return page(route);
  }

  private static Response page(Route route) {
    String text;
    try {
      text = route.source().get();
    } catch (Exception e) {
      return Response.text(503, String.valueOf(e.getMessage()));
    }
    if (text == null) {
      return Response.text(404, "nothing to serve here now");
    }
    return Response.of(200, route.contentType(), text.getBytes(StandardCharsets.UTF_8));
  }

  private String paths() {
    return String.join(", ", new java.util.TreeSet<>(Objects.requireNonNull(routes).keySet()));
  }
}
