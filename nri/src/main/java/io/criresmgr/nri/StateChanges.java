package io.criresmgr.nri;

import com.google.protobuf.ByteString;
import com.google.protobuf.InvalidProtocolBufferException;
import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.Empty;
import io.criresmgr.nri.api.PodSandbox;
import io.criresmgr.nri.api.StateChangeEvent;
import io.criresmgr.nri.ttrpc.TtrpcException;

/** Routes a StateChange call to the handler method of its event. */
final class StateChanges {
  private StateChanges() {}

  static byte[] dispatch(NriHandler h, ByteString payload) throws InvalidProtocolBufferException {
    StateChangeEvent e = StateChangeEvent.parseFrom(payload);
    PodSandbox pod = e.getPod();
    Container c = e.getContainer();
    switch (e.getEvent()) {
      case RUN_POD_SANDBOX -> h.runPodSandbox(pod);
      case STOP_POD_SANDBOX -> h.stopPodSandbox(pod);
      case REMOVE_POD_SANDBOX -> h.removePodSandbox(pod);
      case POST_CREATE_CONTAINER -> h.postCreateContainer(pod, c);
      case START_CONTAINER -> h.startContainer(pod, c);
      case POST_START_CONTAINER -> h.postStartContainer(pod, c);
      case POST_UPDATE_CONTAINER -> h.postUpdateContainer(pod, c);
      case REMOVE_CONTAINER -> h.removeContainer(pod, c);
      default ->
          throw new TtrpcException(
              TtrpcException.Code.INVALID_ARGUMENT,
              "StateChange with event "
                  + e.getEventValue()
                  + " ("
                  + e.getEvent()
                  + "); state changes carry pod events, container start and remove, and post-events");
    }
    return Empty.getDefaultInstance().toByteArray();
  }
}
