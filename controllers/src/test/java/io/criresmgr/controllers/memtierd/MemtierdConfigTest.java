package io.criresmgr.controllers.memtierd;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.criresmgr.controllers.ControllerException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MemtierdConfigTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static JsonNode json(String text) {
    try {
      return JSON.readTree(text.replace('\'', '"'));
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void parsesClassesBinaryAndRunDir() {
    MemtierdConfig config =
        MemtierdConfig.parse(
            json(
                "{'binary': '/usr/local/bin/memtierd', 'rundir': '/run/mt',"
                    + " 'classes': [{'name': 'swap-idle-data', 'allowswap': true,"
                    + " 'memtierdconfig': 'cgroups: [$CGROUP2_ABS_PATH]'},"
                    + " {'name': 'noswap', 'allowswap': false}, {'name': 'plain'}]}"));
    assertEquals(
        new MemtierdConfig(
            List.of(
                new MemtierdClass("swap-idle-data", true, "cgroups: [$CGROUP2_ABS_PATH]"),
                new MemtierdClass("noswap", false, ""),
                new MemtierdClass("plain", null, "")),
            "/usr/local/bin/memtierd",
            Path.of("/run/mt")),
        config);
    assertEquals(true, config.find("swap-idle-data").orElseThrow().runsMemtierd());
    assertEquals(false, config.find("noswap").orElseThrow().runsMemtierd());
    assertEquals(Optional.empty(), config.find("Plain"));
  }

  @Test
  void defaultsAndCaseInsensitiveKeys() {
    assertEquals(MemtierdConfig.EMPTY, MemtierdConfig.parse(MissingNode.getInstance()));
    assertEquals("memtierd", MemtierdConfig.EMPTY.binary());
    assertEquals(Path.of("/var/run/cri-resmgr/memtierd"), MemtierdConfig.EMPTY.runDir());
    MemtierdConfig config =
        MemtierdConfig.parse(json("{'Classes': [{'Name': 'a', 'AllowSwap': true}]}"));
    assertEquals(List.of(new MemtierdClass("a", true, "")), config.classes());
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "{'classes': [{'name': 'a', 'allowswap': 'yes'}]}"
            + "|memtierd.classes[0].allowswap: invalid value \"yes\": expected true or false",
        "{'classes': [{'name': 'a', 'memtierdconfig': 5}]}"
            + "|memtierd.classes[0].memtierdconfig: invalid value 5:"
            + " expected a string (memtierd configuration)",
        "{'classes': [{'name': ''}]}"
            + "|memtierd.classes[0].name: invalid value \"\": expected a non-empty string",
        "{'classes': [{'allowswap': true}]}|memtierd.classes[0].name: missing, a class needs a name",
        "{'classes': [{'name': 'a'}, {'name': 'a'}]}"
            + "|memtierd.classes[1].name: invalid value \"a\":"
            + " duplicate class name, names must be unique",
        "{'classes': [{'name': 'a', 'swaplimitratio': 0.5}]}"
            + "|memtierd.classes[0].swaplimitratio: unknown key,"
            + " expected one of name, allowswap, memtierdconfig",
        "{'classes': {'name': 'a'}}|memtierd.classes: invalid value {\"name\":\"a\"}: expected a list",
        "{'binary': ''}|memtierd.binary: invalid value \"\": expected a non-empty path or command name",
        "{'rundir': 'run/mt'}"
            + "|memtierd.rundir: invalid value \"run/mt\": expected an absolute directory path",
        "{'outputdir': '/x'}|memtierd.outputdir: unknown key, expected one of classes, binary, rundir",
      })
  void errorsNameThePathTheValueAndWhatIsAllowed(String section, String message) {
    ControllerException e =
        assertThrows(ControllerException.class, () -> MemtierdConfig.parse(json(section)));
    assertEquals(message, e.getMessage());
  }
}
