package io.criresmgr.proxy.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConfigStoreTest {
  private final Config first = Config.defaults();
  private final Config second =
      new Config(
          first.policy(),
          first.resourceManager(),
          new DumpConfig("full:.*", "", false, false),
          first.logger(),
          first.instrumentation(),
          first.controllerSections());

  @Test
  void updateNotifiesListenersInOrder() {
    ConfigStore store = new ConfigStore(first);
    List<String> calls = new ArrayList<>();
    store.addListener(c -> calls.add("a:" + c.dump().config()));
    store.addListener(c -> calls.add("b:" + c.dump().config()));
    store.update(second);
    assertSame(second, store.current());
    assertEquals(List.of("a:full:.*", "b:full:.*"), calls);
  }

  @Test
  void rejectedUpdateRestoresAndRenotifiesPrevious() {
    ConfigStore store = new ConfigStore(first);
    List<Config> seenByFirst = new ArrayList<>();
    List<Config> seenByLast = new ArrayList<>();
    store.addListener(seenByFirst::add);
    store.addListener(
        c -> {
          if (c.equals(second)) {
            throw new IllegalArgumentException("dump file cannot be opened");
          }
          seenByLast.add(c);
        });
    ConfigException e = assertThrows(ConfigException.class, () -> store.update(second));
    assertEquals("configuration rejected: dump file cannot be opened", e.getMessage());
    assertSame(first, store.current());
    assertEquals(List.of(second, first), seenByFirst);
    assertEquals(List.of(first), seenByLast);
  }
}
