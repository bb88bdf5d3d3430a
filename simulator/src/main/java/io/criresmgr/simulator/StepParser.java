package io.criresmgr.simulator;

import io.criresmgr.cache.Quantities;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** Parses the items of a scenario's {@code steps} list. */
final class StepParser {
  /** Every step key. */
  static final List<String> KINDS =
      List.of(
          "create",
          "delete",
          "verify",
          "expect-error",
          "restart",
          "reconfigure",
          "exit",
          "wait",
          "expect-log",
          "expect-no-log",
          "set",
          "reset-counters",
          "random",
          "metrics");

  private static final Duration LOG_TIMEOUT = Duration.ofSeconds(5);
  private static final Duration METRICS_TIMEOUT = Duration.ZERO;

  private StepParser() {}

  /**
   * Parses one step: a mapping with one step key, or {@code reset-counters} alone; pods may use the
   * host's {@code devices} (host paths).
   */
  static Step parse(ScenarioNode node, Set<String> devices) {
    if (node.isText() && node.text().equals("reset-counters")) {
      return new Step.ResetCounters(node.line());
    }
    Map<String, ScenarioNode> entries = node.mapping(KINDS);
    if (entries.size() != 1) {
      throw node.error(
          "a step has exactly one of the keys "
              + String.join(", ", KINDS)
              + ", got "
              + String.join(", ", entries.keySet()));
    }
    Map.Entry<String, ScenarioNode> e = entries.entrySet().iterator().next();
    return parse(e.getKey(), e.getValue(), node.line(), devices);
  }

  private static Step parse(String kind, ScenarioNode value, int line, Set<String> devices) {
    return switch (kind) {
      case "create" -> new Step.Create(line, PodVars.parse(value, devices));
      case "delete" ->
          new Step.Delete(line, value.listOrOne().stream().map(ScenarioNode::text).toList());
      case "verify" -> new Step.Check(line, Verify.parse(value));
      case "expect-error" -> expectError(value, line, devices);
      case "restart" -> restart(value, line);
      case "reconfigure" -> reconfigure(value, line);
      case "metrics" -> metrics(value, line);
      case "exit" -> exit(value, line);
      case "wait" -> new Step.Wait(line, value.duration());
      case "expect-log", "expect-no-log" -> expectLog(value, line, kind.equals("expect-log"));
      case "set" -> new Step.Defaults(line, PodVars.parse(value, devices));
      case "reset-counters" -> new Step.ResetCounters(line);
      case "random" -> RandomParser.parse(value, line, devices);
      default -> throw value.error("unknown step");
    };
  }

  private static Step expectError(ScenarioNode value, int line, Set<String> devices) {
    List<String> inner = List.of("create", "restart", "reconfigure");
    Map<String, ScenarioNode> m =
        value.mapping(List.of("create", "restart", "reconfigure", "message"));
    Pattern message = pattern(value.required("message"));
    List<String> given = inner.stream().filter(m::containsKey).toList();
    if (given.size() != 1) {
      throw value.error("expected exactly one of create, restart or reconfigure, and message");
    }
    String which = given.get(0);
    ScenarioNode step = Objects.requireNonNull(m.get(which), () -> "expect-error has no " + which);
    Step parsed =
        switch (which) {
          case "create" -> new Step.Create(line, PodVars.parse(step, devices));
          case "restart" -> restart(step, line);
          default -> reconfigure(step, line);
        };
    return new Step.ExpectError(line, parsed, message);
  }

  private static Step.Reconfigure reconfigure(ScenarioNode value, int line) {
    value.mapping(List.of("config"));
    return new Step.Reconfigure(line, ScenarioParser.configText(value.required("config")));
  }

  private static Step.Metrics metrics(ScenarioNode value, int line) {
    value.mapping(List.of("has", "lacks", "timeout"));
    List<Pattern> has = patterns(value.optional("has"));
    List<Pattern> lacks = patterns(value.optional("lacks"));
    if (has.isEmpty() && lacks.isEmpty()) {
      throw value.error("expected has or lacks with at least one regular expression");
    }
    return new Step.Metrics(
        line,
        has,
        lacks,
        value.optional("timeout").map(ScenarioNode::duration).orElse(METRICS_TIMEOUT));
  }

  private static List<Pattern> patterns(Optional<ScenarioNode> node) {
    return node.map(n -> n.listOrOne().stream().map(StepParser::pattern).toList())
        .orElse(List.of());
  }

  private static Step.Restart restart(ScenarioNode value, int line) {
    if (value.isNull()) {
      return new Step.Restart(line, Optional.empty());
    }
    value.mapping(List.of("config"));
    return new Step.Restart(line, value.optional("config").map(ScenarioParser::configText));
  }

  private static Step exit(ScenarioNode value, int line) {
    if (!value.isMapping()) {
      return new Step.Exit(line, value.text(), 0, false);
    }
    value.mapping(List.of("container", "code", "restart"));
    return new Step.Exit(
        line,
        value.required("container").text(),
        value.optional("code").map(ScenarioNode::integer).orElse(0),
        value.optional("restart").map(ScenarioNode::bool).orElse(false));
  }

  private static Step expectLog(ScenarioNode value, int line, boolean present) {
    if (!value.isMapping()) {
      return new Step.ExpectLog(
          line, pattern(value), present, present ? LOG_TIMEOUT : Duration.ZERO);
    }
    value.mapping(List.of("pattern", "timeout"));
    return new Step.ExpectLog(
        line,
        pattern(value.required("pattern")),
        present,
        value
            .optional("timeout")
            .map(ScenarioNode::duration)
            .orElse(present ? LOG_TIMEOUT : Duration.ZERO));
  }

  /** A regular expression found anywhere in the text it is matched against. */
  static Pattern pattern(ScenarioNode node) {
    try {
      return Pattern.compile(node.text());
    } catch (PatternSyntaxException e) {
      throw node.error("invalid regular expression: " + e.getDescription());
    }
  }

  /** Parses the {@code random} step. */
  static final class RandomParser {
    private RandomParser() {}

    static Step parse(ScenarioNode value, int line, Set<String> devices) {
      value.mapping(
          List.of(
              "seed",
              "operations",
              "pods",
              "max-cpu",
              "max-reserved-cpu",
              "max-mem",
              "exclusive",
              "invariants"));
      Map<String, PodVars> pods = new LinkedHashMap<>();
      value
          .required("pods")
          .mapping()
          .forEach((name, vars) -> pods.put(name, PodVars.parse(vars, devices)));
      if (pods.isEmpty()) {
        throw value.at("pods").error("expected at least one model pod");
      }
      return new Step.Random(
          line,
          value.optional("seed").map(n -> (long) n.integer()).orElse(1L),
          value.required("operations").integer(),
          pods,
          value.optional("max-cpu").map(n -> n.parsed(Quantities::parseMilli)).orElse(0L),
          value.optional("max-reserved-cpu").map(n -> n.parsed(Quantities::parseMilli)).orElse(0L),
          value.optional("max-mem").map(n -> n.parsed(Quantities::parseBytes)).orElse(0L),
          value.optional("exclusive").map(ScenarioNode::bool).orElse(true),
          value.optional("invariants").map(Verify::parse));
    }
  }
}
