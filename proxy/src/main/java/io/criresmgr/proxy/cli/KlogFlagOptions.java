package io.criresmgr.proxy.cli;

import io.criresmgr.proxy.config.KlogFlag;
import io.criresmgr.proxy.log.KlogSettings;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.TypeConversionException;

/**
 * cri-resmgr's klog flags ({@code -v=2}, {@code -logtostderr}, {@code -log_dir DIR}, ...) as
 * options of a command, in every spelling Go's flag package takes (one or two dashes, {@code
 * =value} or a separate value, a boolean alone meaning true). Values are checked when parsed, so a
 * malformed one is a usage error naming the flag; what the daemon does with them is decided by
 * {@link KlogSettings}. The options are built from {@link KlogFlag}, the one list of the flags.
 */
final class KlogFlagOptions {
  /** A flag as given on the command line. */
  private record Given(KlogFlag flag, String value) {}

  private final List<Given> given = new ArrayList<>();

  /** Adds an option for every klog flag to {@code spec}, recording into this. */
  void addTo(CommandSpec spec) {
    for (KlogFlag flag : KlogFlag.values()) {
      spec.addOption(option(flag));
    }
  }

  /** {@code settings} with the flags given on the command line on top, in their order. */
  KlogSettings applyTo(KlogSettings settings) {
    KlogSettings s = settings;
    for (Given g : given) {
      s = s.with(g.flag(), g.value(), "-" + g.flag().flagName());
    }
    return s;
  }

  private OptionSpec option(KlogFlag flag) {
    String name = "--" + flag.flagName();
    OptionSpec.Builder b =
        flag == KlogFlag.V ? OptionSpec.builder("-v", name) : OptionSpec.builder(name);
    b.description(flag.help() + " (klog; " + KlogSettings.effect(flag) + ")")
        .converters(checked(flag))
        .setter(recorder(flag));
    if (flag.isBoolean()) {
      b.type(Boolean.class).arity("0..1").fallbackValue("true").paramLabel("BOOL");
    } else {
      b.type(String.class).arity("1").paramLabel("VALUE");
    }
    return b.build();
  }

  private static ITypeConverter<Object> checked(KlogFlag flag) {
    return value -> {
      try {
        String canonical = flag.check(value);
        return flag.isBoolean() ? Boolean.valueOf(canonical) : canonical;
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    };
  }

  private ISetter recorder(KlogFlag flag) {
    return new ISetter() {
      @Override
      public <T> @Nullable T set(@Nullable T value) {
        if (value != null) { // picocli sets null first, for the absent default
          given.add(new Given(flag, value.toString()));
        }
        return null;
      }
    };
  }
}
