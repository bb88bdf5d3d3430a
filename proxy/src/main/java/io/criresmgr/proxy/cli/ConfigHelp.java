package io.criresmgr.proxy.cli;

import io.criresmgr.controllers.ControllerSection;
import io.criresmgr.controllers.builtin.BuiltInControllers;
import io.criresmgr.policy.PolicyRegistry;
import io.criresmgr.proxy.config.ConfigLoader;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Text of {@code cri-resmgr config-help [section...]}: what each configuration section holds. The
 * daemon's own sections are described here; the policy section lists the policies of the registry,
 * and each controller's section brings its text with it ({@link ControllerSection#help}). The full
 * reference is docs/configuration.md.
 */
final class ConfigHelp {
  private static final Map<String, String> DAEMON_SECTIONS = daemonSections();

  private final Map<String, String> sections = new LinkedHashMap<>();

  /** Help for the policies of {@code policies} and the built-in controllers. */
  ConfigHelp(PolicyRegistry policies) {
    sections.put("policy", policyHelp(policies));
    for (ControllerSection<?> s : BuiltInControllers.registry().sections()) {
      sections.put(s.name(), s.help());
    }
    sections.putAll(DAEMON_SECTIONS);
  }

  private static String policyHelp(PolicyRegistry policies) {
    return """
        Placement policy.
          Active              name of the active policy (see --list-policies), default none
          AvailableResources  resources the policy may use, e.g. CPU: cpuset:1-15
          ReservedResources   resources for kube-system pods, e.g. CPU: 750m or cpuset:0-1
          <policy name>       options of that policy, used when it is active; one of
        """
        + " ".repeat(22)
        + String.join(", ", policies.names());
  }

  private static Map<String, String> daemonSections() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(
        "resource-manager",
        """
        Resource manager; its child section control holds:
          Controllers     mode per controller: disabled, required, optional or relaxed
          page-migration  options of the page-migration controller (kept for later)""");
    m.put(
        "dump",
        """
        Logging of CRI messages.
          Config    comma-separated [off|name|full:]pattern rules, pattern a method name,
                    * or a regular expression
          File      also write dumps to this file, default none
          Debug     log dumps at debug level (source message) instead of info
          Disabled  no dumps at all""");
    m.put(
        "logger",
        """
        Logging.
          Debug      sources with debug logging: [on|off:]source,..., * for all
          Klog       cri-resmgr's klog flags: skip_headers drops time stamps, the
                     others are checked and warned of (see docs/configuration.md)
          LogSource  accepted, no effect (the logger name is always shown)""");
    m.put(
        "instrumentation",
        """
        Metrics and tracing.
          Sampling          disabled, production, testing or a ratio 0..1
          ReportPeriod      reporting period, Go duration, default 15s
          JaegerCollector   Jaeger collector endpoint (accepted, tracing not implemented)
          JaegerAgent       Jaeger agent endpoint (accepted, tracing not implemented)
          HTTPEndpoint      [host]:port of the HTTP server, default :8891, "" for none
          PrometheusExport  serve /metrics, default true
          RemoteIntrospection
                            serve /introspect to other hosts too, default false
                            (loopback clients only)""");
    return Map.copyOf(m);
  }

  /**
   * Help for {@code names}, or for every section if empty. Throws {@link IllegalArgumentException}
   * for an unknown section name.
   */
  String describe(List<String> names) {
    List<String> wanted = names.isEmpty() ? ConfigLoader.SECTIONS : names;
    StringBuilder out = new StringBuilder();
    for (String name : wanted) {
      String text = sections.get(name);
      if (text == null) {
        throw new IllegalArgumentException(
            "unknown configuration section \""
                + name
                + "\", expected one of "
                + String.join(", ", ConfigLoader.SECTIONS));
      }
      out.append(name).append(": ").append(text).append("\n\n");
    }
    return out.toString();
  }
}
