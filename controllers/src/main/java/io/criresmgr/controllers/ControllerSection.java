package io.criresmgr.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.function.Function;

/**
 * A top-level configuration section that belongs to a controller: its name, the text {@code
 * cri-resmgr config-help} shows for it, and its parser. The configuration loader parses every
 * section given, so that a bad one refuses the whole configuration before anything is applied; the
 * controller parses it again when it (re)starts.
 *
 * @param name the section's top-level key, e.g. {@code rdt}
 * @param help a one-line summary, then one indented line per field (see {@code config-help})
 * @param parser parses the section (an absent one is a null node) into the controller's immutable
 *     configuration; throws {@link ControllerException} naming the path, the value and what is
 *     allowed
 * @param <C> the controller's configuration
 */
public record ControllerSection<C>(String name, String help, Function<JsonNode, C> parser) {
  /** Checks for nulls. */
  public ControllerSection {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(help, "help");
    Objects.requireNonNull(parser, "parser");
  }

  /**
   * Parses {@code section}.
   *
   * @throws ControllerException naming the path, the value and what is allowed
   */
  public C parse(JsonNode section) {
    return parser.apply(section);
  }
}
