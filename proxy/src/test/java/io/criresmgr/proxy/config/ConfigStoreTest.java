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

  @Test
  void listenersAddedAfterAnUpdateAreBroughtToIt() {
    ConfigStore store = new ConfigStore(first);
    Config started = store.current();
    List<String> early = new ArrayList<>();
    store.addListener(c -> early.add(c.dump().config()));
    store.update(second); // a reload signal while the daemon's parts start with `started`
    List<String> late = new ArrayList<>();
    store.addListeners(started, List.of(c -> late.add(c.dump().config())));
    assertSame(second, store.current());
    assertEquals(List.of("full:.*"), late);
    assertEquals(List.of("full:.*", "full:.*"), early);
  }

  @Test
  void listenersAddedWithoutAnUpdateAreNotCalled() {
    ConfigStore store = new ConfigStore(first);
    List<Config> late = new ArrayList<>();
    store.addListeners(store.current(), List.of(late::add));
    assertEquals(List.of(), late);
    store.update(second);
    assertEquals(List.of(second), late);
  }

  @Test
  void anUpdateTheAddedListenersRejectLeavesTheStartedConfigurationActive() {
    ConfigStore store = new ConfigStore(first);
    Config started = store.current();
    List<Config> early = new ArrayList<>();
    store.addListener(early::add);
    store.update(second);
    List<Config> late = new ArrayList<>();
    ConfigListener rejecting =
        c -> {
          if (c.equals(second)) {
            throw new IllegalArgumentException("dump file cannot be opened");
          }
          late.add(c);
        };
    ConfigException e =
        assertThrows(ConfigException.class, () -> store.addListeners(started, List.of(rejecting)));
    assertEquals("configuration rejected: dump file cannot be opened", e.getMessage());
    assertSame(started, store.current());
    assertEquals(List.of(second, second, started), early);
    assertEquals(List.of(started), late);
  }
}
