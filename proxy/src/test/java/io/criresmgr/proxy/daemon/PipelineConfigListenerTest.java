package io.criresmgr.proxy.daemon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.criresmgr.cache.CacheFile;
import io.criresmgr.cache.NodeCache;
import io.criresmgr.cache.NodeState;
import io.criresmgr.controllers.Controller;
import io.criresmgr.controllers.ControllerContext;
import io.criresmgr.controllers.ControllerException;
import io.criresmgr.controllers.ControllerMode;
import io.criresmgr.grpc.unix.EventLoops;
import io.criresmgr.policy.Decisions;
import io.criresmgr.policy.HostCpus;
import io.criresmgr.policy.Policy;
import io.criresmgr.policy.PolicyContext;
import io.criresmgr.policy.PolicyException;
import io.criresmgr.policy.PolicyOptions;
import io.criresmgr.policy.PolicyProvider;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.NoDecisions;
import io.criresmgr.proxy.config.Config;
import io.criresmgr.proxy.config.ConfigException;
import io.criresmgr.proxy.config.PolicyConfig;
import io.criresmgr.proxy.config.ResourceManagerConfig;
import io.criresmgr.proxy.core.PolicyActivation;
import io.criresmgr.proxy.core.ResourceManager;
import io.criresmgr.proxy.relay.RuntimeChannels;
import io.grpc.ManagedChannel;
import io.netty.channel.EventLoopGroup;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The order of a reload: the policy reconfigures before the controllers, so that a policy refusing
 * the new options changes nothing, while controllers (which write host files) are only reached once
 * the policy accepted.
 */
class PipelineConfigListenerTest {
  @TempDir Path dir;
  private final List<String> events = new ArrayList<>();

  /** Options {@code {"refuse": bool}}: a refusing policy throws at reconfigure. */
  private record RecordingOptions(boolean refuse) implements PolicyOptions {}

  private final PolicyProvider<RecordingOptions> recording =
      new PolicyProvider<RecordingOptions>() {
        @Override
        public String name() {
          return "recording";
        }

        @Override
        public String description() {
          return "records reconfigure calls";
        }

        @Override
        public RecordingOptions parseOptions(JsonNode section) {
          return new RecordingOptions(section.path("refuse").asBoolean(false));
        }

        @Override
        public Policy create(PolicyContext context, RecordingOptions options) {
          boolean refuse = options.refuse();
          return new NoDecisions() {

            @Override
            public Decisions reconfigure(NodeState node) {
              if (refuse) {
                events.add("policy refused");
                throw new PolicyException("refused");
              }
              events.add("policy");
              return Decisions.NONE;
            }
          };
        }
      };

  private final Controller recorder =
      new Controller() {
        @Override
        public String name() {
          return "recorder";
        }

        @Override
        public void reconfigure(ControllerContext context) {
          if (context
              .section("recorder")
              .map(n -> n.path("value").asText())
              .orElse("")
              .equals("refuse")) {
            events.add("controller refused");
            throw new ControllerException("refused");
          }
          events.add("controller");
        }
      };

  private static Config config(boolean refuse, String section) {
    Config defaults = Config.defaults();
    JsonNodeFactory json = JsonNodeFactory.instance;
    return new Config(
        new PolicyConfig(
            "recording",
            Map.of(),
            Map.of(),
            Map.of("recording", json.objectNode().put("refuse", refuse).put("n", section))),
        defaults.resourceManager(),
        defaults.dump(),
        defaults.logger(),
        defaults.instrumentation(),
        Map.of("recorder", json.objectNode().put("value", section)));
  }

  @Test
  void thePolicyReconfiguresFirstAndARefusalNeverReachesTheControllers() throws Exception {
    PolicyRegistry registry = new PolicyRegistry(List.of(recording));
    Path online = dir.resolve(HostCpus.CPU_ONLINE);
    Files.createDirectories(online.getParent());
    Files.writeString(online, "0\n");
    ControllerContext controllerContext = new ControllerContext(dir, dir, Map.of());
    Config first = config(false, "1");
    EventLoopGroup loops = EventLoops.epoll("test-runtime", 1);
    ManagedChannel unused = RuntimeChannels.channel(dir.resolve("no-runtime.sock"), loops);
    try (ResourceManager manager =
        new ResourceManager(
            new NodeCache(),
            PolicyActivation.activate(registry, first.policy(), dir),
            List.of(recorder),
            unused,
            new CacheFile(dir),
            EventLoops::madeByNetty)) {
      manager
          .pipeline()
          .run(
              s -> {
                s.configureControllers(
                    Map.of(),
                    controllerContext.withSections(first.controllerSections()).withNode(s));
                return null;
              })
          .get();
      PipelineConfigListener listener =
          new PipelineConfigListener(first, manager, registry, dir, false, controllerContext);

      listener.configChanged(config(false, "2"));
      assertEquals(List.of("policy", "controller"), events);

      events.clear();
      assertThrows(Exception.class, () -> listener.configChanged(config(true, "3")));
      assertEquals(List.of("policy refused"), events, "the controllers never saw section 3");

      events.clear();
      PipelineConfigListener noSwitch =
          new PipelineConfigListener(first, manager, registry, dir, true, controllerContext);
      Config other = config(false, "4");
      Config switching =
          new Config(
              new PolicyConfig("none", Map.of(), Map.of(), Map.of()),
              other.resourceManager(),
              other.dump(),
              other.logger(),
              other.instrumentation(),
              other.controllerSections());
      ConfigException refused =
          assertThrows(ConfigException.class, () -> noSwitch.configChanged(switching));
      assertEquals(
          "policy.Active: switching from recording to none is disabled by"
              + " --disable-policy-switch; keep policy.Active: recording",
          refused.getMessage());
      assertEquals(List.of(), events, "a refused switch reaches neither policy nor controllers");

      events.clear();
      Policy applied = manager.pipeline().run(s -> s.policy().policy()).get();
      Config refusing = config(false, "refuse");
      Config required =
          new Config(
              refusing.policy(),
              new ResourceManagerConfig(Map.of("recorder", ControllerMode.REQUIRED)),
              refusing.dump(),
              refusing.logger(),
              refusing.instrumentation(),
              refusing.controllerSections());
      assertThrows(ControllerException.class, () -> listener.configChanged(required));
      // The controller set gives the recorder its old section back itself ("controller").
      assertEquals(List.of("policy", "controller refused", "controller"), events);
      assertSame(applied, manager.pipeline().run(s -> s.policy().policy()).get(), "put back");
      events.clear();
      listener.configChanged(config(false, "2")); // what the store's rollback offers again
      assertEquals(List.of(), events, "nothing to redo, so no container moves twice");
    } finally {
      unused.shutdownNow();
      EventLoops.shutdown(loops);
    }
  }
}
