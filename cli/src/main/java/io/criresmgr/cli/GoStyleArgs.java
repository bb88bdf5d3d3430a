package io.criresmgr.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Accepts Go's single-dash long flags ({@code -relay-socket x}, {@code -force-config=x}) by
 * rewriting them to picocli's double-dash form. Only arguments naming a known long option of the
 * command (or subcommand) being parsed are rewritten, never option values. Shared by {@code
 * cri-resmgr}, {@code cri-resmgr-agent} and {@code cri-resmgr-webhook}, whose Go originals all took
 * single-dash flags.
 */
public final class GoStyleArgs {
  private GoStyleArgs() {}

  /** {@code args} with single-dash long options of {@code root} and its subcommands doubled. */
  public static String[] normalize(CommandLine root, String[] args) {
    CommandSpec spec = root.getCommandSpec();
    List<String> out = new ArrayList<>();
    boolean valueExpected = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (valueExpected || arg.equals("--")) {
        out.add(arg);
        valueExpected = false;
        if (arg.equals("--")) {
          out.addAll(List.of(args).subList(i + 1, args.length));
          break;
        }
        continue;
      }
      CommandLine sub = spec.subcommands().get(arg);
      if (sub != null) {
        spec = sub.getCommandSpec();
      }
      String normalized = doubled(spec, arg);
      out.add(normalized);
      valueExpected = needsSeparateValue(spec, normalized);
    }
    return out.toArray(String[]::new);
  }

  private static String doubled(CommandSpec spec, String arg) {
    if (arg.length() > 2 && arg.charAt(0) == '-' && arg.charAt(1) != '-') {
      String candidate = "-" + arg;
      if (spec.optionsMap().containsKey(name(candidate))) {
        return candidate;
      }
    }
    return arg;
  }

  private static boolean needsSeparateValue(CommandSpec spec, String arg) {
    if (arg.contains("=")) {
      return false;
    }
    OptionSpec option = spec.optionsMap().get(arg);
    return option != null && option.arity().min() > 0;
  }

  private static String name(String arg) {
    int eq = arg.indexOf('=');
    return eq < 0 ? arg : arg.substring(0, eq);
  }
}
