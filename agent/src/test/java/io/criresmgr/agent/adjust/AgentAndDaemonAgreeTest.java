package io.criresmgr.agent.adjust;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.google.gson.JsonParser;
import io.criresmgr.cache.adjustment.AdjustmentException;
import io.criresmgr.cache.adjustment.AdjustmentParser;
import io.criresmgr.cache.adjustment.AdjustmentSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent accepts exactly the specs the daemon accepts, with the same words for what is wrong
 * (both use {@code io.criresmgr.adjustment.AdjustmentValidator},
 * docs/adr/0014-one-adjustment-model.md), and what the agent sends for an accepted spec is accepted
 * by the daemon as the same adjustment.
 */
class AgentAndDaemonAgreeTest {
  private static final String NODE = "n1";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{'scope':[{}]}",
        "{'scope':[{'nodes':['n1','w-*'],'containers':[{'key':'name','operator':'In','values':['x']}]}],"
            + "'resources':{'requests':{'cpu':0.5,'memory':1073741824},'limits':{'cpu':'2','memory':'2Gi'}},"
            + "'classes':{'rdt':'gold','blockio':'slow'},'toptierLimit':1e9}",
        "{'scope':[{}],'resources':{'limits':{'cpu':'500m'}}}",
        "{'scope':[{}],'resources':{'requests':{'cpu':'2'},'limits':{'cpu':'1'}}}",
        "{'scope':[{}],'resources':{'requests':{'cpu':'2 cores','memory':true}}}",
        "{'scope':[{}],'resources':{}}",
        "{'scope':[{}],'resources':{'requests':{'hugepages-2Mi':'1'}}}",
        "{'scope':[]}",
        "{'scope':{'nodes':['n1']}}",
        "{}",
        "[]",
        "null",
        "{'scope':[{'nodes':['']}]}",
        "{'scope':[{'nodes':['n1',null]}]}",
        "{'scope':[{'containers':[{'key':'name','operator':'Is'}]}]}",
        "{'scope':[{'containers':[{'key':'name','operator':'Exists','values':['x']}]}]}",
        "{'scope':[{'containers':[{'key':'name','operator':'Matches','values':['[x']}]}]}",
        "{'scope':[{'containers':[{'operator':'AlwaysTrue'}]}]}",
        "{'scope':[{'containers':[{'key':'name','op':'Exists'}]}]}",
        "{'scope':[{}],'cpus':2,'classes':{'rdt':1},'toptierLimit':'lots'}",
        "{'scope':[{}],'resources':{'requests':{'cpu':1e-400,'memory':1e400}}}",
        "{'scope':[{}],'resources':{'requests':{'cpu':-1e-400}},'toptierLimit':100111111E11110111000}",
        "{'scope':[{}],'resources':{'requests':{'cpu':1.5E0,'memory':12e8}},'toptierLimit':-0.0}",
        "{'scope':[{}],'classes':{'rdt':1e9,'blockio':1E+9}}",
      })
  void acceptAndRejectTheSameSpecs(String spec) {
    String json = spec.replace('\'', '"');
    Optional<String> agent = agent(json);
    Optional<String> daemon = daemon("{\"a1\":" + json + "}");
    assertEquals(daemon, agent, json);
    if (agent.isEmpty()) {
      // What the agent sends is what it accepted: the daemon reads it as the same adjustment.
      Adjustment parsed = parse(json);
      String sent = NodeAdjustments.of(NODE, List.of(parsed)).json();
      assertEquals(Optional.empty(), daemon(sent), sent);
      assertEquals(daemonSet("{\"a1\":" + json + "}"), daemonSet(sent), sent);
    }
  }

  private static Adjustment parse(String spec) {
    return io.criresmgr.agent.adjust.AdjustmentParser.parse(
        JsonParser.parseString("{\"metadata\":{\"name\":\"a1\"},\"spec\":" + spec + "}")
            .getAsJsonObject());
  }

  /** The agent's objection to {@code spec}, if any. */
  private static Optional<String> agent(String spec) {
    try {
      parse(spec);
      return Optional.empty();
    } catch (IllegalArgumentException e) {
      return Optional.of(e.getMessage());
    }
  }

  /** The daemon's objection to the {@code SetAdjustment} payload {@code json}, if any. */
  private static Optional<String> daemon(String json) {
    try {
      AdjustmentParser.parse(NODE, json);
      return Optional.empty();
    } catch (AdjustmentException e) {
      return Optional.of(e.getMessage());
    }
  }

  private static AdjustmentSet daemonSet(String json) {
    try {
      return AdjustmentParser.parse(NODE, json);
    } catch (AdjustmentException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
