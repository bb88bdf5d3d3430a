package io.criresmgr.nri;

import io.criresmgr.nri.api.Container;
import io.criresmgr.nri.api.Event;
import io.criresmgr.nri.api.LinuxResources;
import io.criresmgr.nri.api.PodSandbox;
import java.util.EnumSet;
import java.util.Set;

/** NRI event masks: bit {@code e - 1} stands for event {@code e}, as in ConfigureResponse. */
public final class NriEvents {
  private static final Class<?>[] POD = {PodSandbox.class};
  private static final Class<?>[] CONTAINER = {PodSandbox.class, Container.class};
  private static final Class<?>[] UPDATE = {
    PodSandbox.class, Container.class, LinuxResources.class
  };

  private NriEvents() {}

  /** The mask of {@code events}. */
  public static int mask(Set<Event> events) {
    int mask = 0;
    for (Event e : events) {
      if (e == Event.UNKNOWN || e == Event.LAST || e == Event.UNRECOGNIZED) {
        throw new IllegalArgumentException("event " + e + " cannot be subscribed to");
      }
      mask |= 1 << (e.getNumber() - 1);
    }
    return mask;
  }

  /** The events whose {@link NriHandler} methods {@code handler}'s class overrides. */
  public static Set<Event> subscribedBy(NriHandler handler) {
    Set<Event> events = EnumSet.noneOf(Event.class);
    Class<?> type = handler.getClass();
    add(events, type, "runPodSandbox", POD, Event.RUN_POD_SANDBOX);
    add(events, type, "stopPodSandbox", POD, Event.STOP_POD_SANDBOX);
    add(events, type, "removePodSandbox", POD, Event.REMOVE_POD_SANDBOX);
    add(events, type, "createContainer", CONTAINER, Event.CREATE_CONTAINER);
    add(events, type, "postCreateContainer", CONTAINER, Event.POST_CREATE_CONTAINER);
    add(events, type, "startContainer", CONTAINER, Event.START_CONTAINER);
    add(events, type, "postStartContainer", CONTAINER, Event.POST_START_CONTAINER);
    add(events, type, "updateContainer", UPDATE, Event.UPDATE_CONTAINER);
    add(events, type, "postUpdateContainer", CONTAINER, Event.POST_UPDATE_CONTAINER);
    add(events, type, "stopContainer", CONTAINER, Event.STOP_CONTAINER);
    add(events, type, "removeContainer", CONTAINER, Event.REMOVE_CONTAINER);
    return events;
  }

  private static void add(
      Set<Event> events, Class<?> type, String method, Class<?>[] params, Event event) {
    try {
      if (type.getMethod(method, params).getDeclaringClass() != NriHandler.class) {
        events.add(event);
      }
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("NriHandler has no method " + method, e);
    }
  }
}
