package io.criresmgr.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The probe's command line; its calls are tested against a live agent in AgentServerIT. */
class ProbeMainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return ProbeMain.run(args, new PrintWriter(out), new PrintWriter(err));
  }

  @Test
  void anUnknownFlagIsAUsageError() {
    assertEquals(1, run("-socket", "/x"));
    assertTrue(
        err.toString().startsWith("cri-resmgr-agent-probe: Unknown options: '-socket', '/x'"),
        err.toString());
    assertTrue(err.toString().contains("Usage: cri-resmgr-agent-probe"), err.toString());
  }

  @Test
  void helpNamesTheDefaultSocket() {
    assertEquals(0, run("-h"));
    String help = out.toString().replaceAll("\\s+", " ");
    assertTrue(help.contains("(default /var/run/cri-resmgr/cri-resmgr-agent.sock)"), help);
    assertEquals("", err.toString());
  }
}
