package io.criresmgr.fuzz;

import static io.criresmgr.fuzz.Refusals.valueOrRefusal;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.ConfigLoader;
import io.criresmgr.proxy.configserver.AgentConfigText;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * The configuration loader on any text: a configuration file ({@link ConfigLoader#parse}) or, for
 * input that starts with <code>{</code>, the agent's configuration as the cache stores it ({@link
 * AgentConfigText#decode} then {@link ConfigLoader#parseSections}). Either gives a {@code Config}
 * or a {@link ConfigException} that names the source.
 */
class ConfigFuzzTest {
  private static final String SOURCE = "fuzzed.cfg";
  private static final ConfigLoader LOADER = ConfigLoader.builtIn();

  @FuzzTest(maxDuration = "20s")
  void configTextIsLoadedOrRefusedWithTheSourceNamed(byte[] input) throws Exception {
    String text = new String(input, StandardCharsets.UTF_8);
    if (text.startsWith("{")) {
      Optional<Map<String, String>> sections =
          valueOrRefusal(ConfigException.class, SOURCE, () -> AgentConfigText.decode(SOURCE, text));
      if (sections.isPresent()) {
        valueOrRefusal(
            ConfigException.class, SOURCE, () -> LOADER.parseSections(SOURCE, sections.get()));
      }
    } else {
      valueOrRefusal(ConfigException.class, SOURCE, () -> LOADER.parse(SOURCE, text));
    }
  }
}
