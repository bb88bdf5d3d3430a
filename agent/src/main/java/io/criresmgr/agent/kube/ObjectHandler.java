package io.criresmgr.agent.kube;

import java.util.List;

/** Receives what a {@link WatchLoop} learns, from the loop's thread. */
public interface ObjectHandler<T> {
  /** After each (re-)list: these are all the objects now. */
  void replaceAll(List<T> objects);

  /** An object was added or modified. */
  void changed(T object);

  /** An object was deleted. */
  void deleted(T object);
}
