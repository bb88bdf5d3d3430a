package io.criresmgr.agent;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Accepts the Go binary's single-dash flags ({@code -port 8443}, {@code -cert-file=x}) by doubling
 * the dash of arguments that name a long option of the command; option values and anything after
 * {@code --} are left alone.
 */
final class GoStyleArgs {
  private GoStyleArgs() {}

  /** {@code args} with single-dash long options of {@code spec} written with two dashes. */
  static String[] normalize(CommandSpec spec, String[] args) {
    List<String> out = new ArrayList<>(args.length);
    boolean isValue = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!isValue && arg.equals("--")) {
        out.addAll(List.of(args).subList(i, args.length));
        break;
      }
      String normalized = isValue ? arg : doubled(spec, arg);
      out.add(normalized);
      OptionSpec option = isValue ? null : spec.optionsMap().get(normalized);
      isValue = option != null && option.arity().min() > 0;
    }
    return out.toArray(String[]::new);
  }

  private static String doubled(CommandSpec spec, String arg) {
    boolean singleDash = arg.length() > 2 && arg.charAt(0) == '-' && arg.charAt(1) != '-';
    return singleDash && spec.optionsMap().containsKey("-" + name(arg)) ? "-" + arg : arg;
  }

  private static String name(String arg) {
    int eq = arg.indexOf('=');
    return eq < 0 ? arg : arg.substring(0, eq);
  }
}
