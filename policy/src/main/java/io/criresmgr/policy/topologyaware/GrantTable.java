package io.criresmgr.policy.topologyaware;

import com.fasterxml.jackson.databind.JsonNode;
import io.criresmgr.policy.topologyaware.AvlTree.Node;
import java.util.AbstractCollection;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The grants by cache id with the JSON of each, oldest first (a replaced grant keeps its place), as
 * a persistent structure: {@link #put} and {@link #remove} return a new table sharing all but O(log
 * n) nodes with this one, so a decision's working ledger and the policy data it produces cost what
 * the decision changes, not a copy of every grant.
 */
final class GrantTable {
  /** No grants. */
  static final GrantTable EMPTY = new GrantTable(null, null, 0, 0);

  // The order of cache ids in every tree of grants by id (see also Ledger's indexes).
  // By hash first (cache ids share long prefixes, and a String caches its hash), then by id;
  // written out, not composed with comparingInt.thenComparing: a decision looks up every
  // container's grant, and the composed comparator's calls were most of that.
  static final Comparator<String> BY_ID = GrantTable::compareIds;
  private static final Comparator<Long> BY_SEQ = Comparator.naturalOrder();

  private record Row(Grant grant, JsonNode json, long seq) {}

  private final @Nullable Node<String, Row> byId;
  private final @Nullable Node<Long, Row> bySeq;
  private final long nextSeq;
  private final int size;

  private GrantTable(
      @Nullable Node<String, Row> byId, @Nullable Node<Long, Row> bySeq, long nextSeq, int size) {
    this.byId = byId;
    this.bySeq = bySeq;
    this.nextSeq = nextSeq;
    this.size = size;
  }

  /** The grant of {@code cacheId}, or null. */
  @Nullable Grant get(String cacheId) {
    Row e = AvlTree.get(byId, cacheId, BY_ID);
    return e == null ? null : e.grant();
  }

  /** The table with {@code g} (and its JSON) in place of the container's old grant, or last. */
  GrantTable put(Grant g, JsonNode json) {
    Row old = AvlTree.get(byId, g.cacheId(), BY_ID);
    long seq = old == null ? nextSeq : old.seq();
    Row e = new Row(g, json, seq);
    return new GrantTable(
        AvlTree.put(byId, g.cacheId(), e, BY_ID),
        AvlTree.put(bySeq, seq, e, BY_SEQ),
        old == null ? nextSeq + 1 : nextSeq,
        old == null ? size + 1 : size);
  }

  /** The table without the container's grant (this table if it has none). */
  GrantTable remove(String cacheId) {
    Row old = AvlTree.get(byId, cacheId, BY_ID);
    if (old == null) {
      return this;
    }
    return new GrantTable(
        AvlTree.remove(byId, cacheId, BY_ID),
        AvlTree.remove(bySeq, old.seq(), BY_SEQ),
        nextSeq,
        size - 1);
  }

  /** The number of grants. */
  int size() {
    return size;
  }

  /** The grants, oldest first: a read-only view of this (immutable) table. */
  Collection<Grant> grants() {
    return new AbstractCollection<>() {
      @Override
      public Iterator<Grant> iterator() {
        return AvlTree.values(bySeq, Row::grant);
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  /** Cache id to the grant's JSON, oldest first: a read-only view of this (immutable) table. */
  Map<String, JsonNode> json() {
    return new JsonView();
  }

  private final class JsonView extends AbstractMap<String, JsonNode> {
    @Override
    public @Nullable JsonNode get(@Nullable Object key) {
      Row e = key instanceof String id ? AvlTree.get(byId, id, BY_ID) : null;
      return e == null ? null : e.json();
    }

    @Override
    public boolean containsKey(@Nullable Object key) {
      return get(key) != null;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public Set<Map.Entry<String, JsonNode>> entrySet() {
      return new AbstractSet<>() {
        @Override
        public Iterator<Map.Entry<String, JsonNode>> iterator() {
          return AvlTree.values(bySeq, e -> Map.entry(e.grant().cacheId(), e.json()));
        }

        @Override
        public int size() {
          return size;
        }
      };
    }
  }

  private static int compareIds(String a, String b) {
    int byHash = Integer.compare(a.hashCode(), b.hashCode());
    return byHash != 0 ? byHash : a.compareTo(b);
  }
}
