package io.criresmgr.agent.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.criresmgr.api.agent.v1.JsonPatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class JsonPatchesTest {
  private static JsonPatch patch(String op, String path, String value) {
    return JsonPatch.newBuilder().setOp(op).setPath(path).setValue(value).build();
  }

  @Test
  void valuesAreEmbeddedAsJsonAndAnEmptyValueIsLeftOut() {
    assertEquals(
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/a~1b\",\"value\":\"x\"},"
            + "{\"op\":\"replace\",\"path\":\"/spec/taints\",\"value\":[{\"key\":\"k\"}]},"
            + "{\"op\":\"replace\",\"path\":\"/spec/podCIDR\",\"value\":null},"
            + "{\"op\":\"remove\",\"path\":\"/metadata/labels/c\"}]",
        JsonPatches.toJson(
            List.of(
                patch("add", "/metadata/labels/a~1b", "\"x\""),
                patch("replace", "/spec/taints", "[{\"key\": \"k\"}]"),
                patch("replace", "/spec/podCIDR", "null"),
                patch("remove", "/metadata/labels/c", ""))));
  }

  @Test
  void aValueThatIsNotJsonNamesThePatch() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                JsonPatches.toJson(
                    List.of(
                        patch("add", "/metadata/labels/a", "\"x\""),
                        patch("add", "/metadata/labels/b", "unquoted"))));
    assertEquals("patch 1 (path /metadata/labels/b): value is not JSON: unquoted", e.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> JsonPatches.toJson(List.of(patch("add", "/a", "1 2"))));
  }
}
