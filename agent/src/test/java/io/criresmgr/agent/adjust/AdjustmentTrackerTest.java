package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AdjustmentTrackerTest {
  private final AdjustmentTracker tracker = new AdjustmentTracker("n1");

  private static JsonObject object(String name, String spec, String status) {
    return JsonParser.parseString(
            "{\"metadata\":{\"name\":\""
                + name
                + "\"},\"spec\":"
                + spec
                + ",\"status\":"
                + status
                + "}")
        .getAsJsonObject();
  }

  private static final JsonObject GOOD =
      object("good", "{\"scope\":[{}]}", "{\"nodes\":{\"n1\":{\"errors\":{\"c\":\"e\"}}}}");
  private static final JsonObject ELSEWHERE =
      object("elsewhere", "{\"scope\":[{\"nodes\":[\"n2\"]}]}", "{}");
  private static final JsonObject BAD = object("bad", "{\"scope\":5}", "{}");

  @Test
  void nothingIsKnownBeforeTheList() {
    assertFalse(tracker.listed());
    tracker.replaceAll(List.of(GOOD, ELSEWHERE, BAD));
    assertTrue(tracker.listed());
  }

  @Test
  void anInvalidObjectIsLeftOut() {
    tracker.replaceAll(List.of(GOOD, ELSEWHERE, BAD));
    assertEquals(Set.of("good"), tracker.current().names());
    assertEquals(
        Map.of(
            "good",
            Optional.of(Map.of("c", "e")),
            "elsewhere",
            Optional.empty(),
            "bad",
            Optional.empty()),
        tracker.nodeStatus());
    assertEquals(Map.of("bad", Optional.empty()), tracker.invalidStatus());
  }

  @Test
  void anObjectThatBecomesInvalidLeavesTheSetButKeepsItsStatus() {
    tracker.replaceAll(List.of(GOOD));
    tracker.changed(
        object("good", "{\"scope\":[{}],\"classes\":5}", "{\"nodes\":{\"n1\":{\"errors\":{}}}}"));
    assertEquals(Set.of(), tracker.current().names());
    assertEquals(Map.of("good", Optional.of(Map.of())), tracker.nodeStatus());
    assertEquals(
        Map.of(
            "good",
            Optional.of(
                Map.of("request", "adjustment good: classes: expected an object, got NUMBER"))),
        tracker.invalidStatus());
    tracker.changed(GOOD);
    assertEquals(Map.of(), tracker.invalidStatus());
  }

  @Test
  void anInvalidObjectWhoseScopeCannotBeReadWantsNoEntry() {
    tracker.replaceAll(List.of(object("good", "{\"scope\":[{\"nodes\":[1]}]}", "{}")));
    assertEquals(Map.of("good", Optional.empty()), tracker.invalidStatus());
    tracker.deleted(object("good", "{}", "{}"));
    assertEquals(Map.of(), tracker.invalidStatus());
  }

  private static JsonObject versioned(JsonObject object, String version) {
    JsonObject copy = object.deepCopy();
    copy.getAsJsonObject("metadata").addProperty("resourceVersion", version);
    return copy;
  }

  @Test
  void aPatchAnswerOlderThanTheWatchedVersionIsIgnored() {
    tracker.replaceAll(List.of());
    tracker.changed(versioned(BAD, "8"));
    tracker.patched(versioned(object("bad", "{\"scope\":[{}]}", "{}"), "5"));
    assertEquals(Set.of(), tracker.current().names());
    tracker.patched(versioned(object("bad", "{\"scope\":[{}]}", "{}"), "9"));
    assertEquals(Set.of("bad"), tracker.current().names());
  }

  @Test
  void changesAndDeletionsAreTracked() {
    tracker.replaceAll(List.of());
    tracker.changed(GOOD);
    tracker.changed(ELSEWHERE);
    assertEquals(Set.of("good"), tracker.current().names());
    tracker.deleted(GOOD);
    assertEquals(Set.of(), tracker.current().names());
    assertEquals(Set.of("elsewhere"), tracker.nodeStatus().keySet());
  }
}
