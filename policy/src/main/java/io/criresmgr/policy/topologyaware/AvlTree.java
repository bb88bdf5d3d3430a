package io.criresmgr.policy.topologyaware;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A persistent (immutable, structurally shared) AVL tree from keys to values: putting or removing
 * returns a new tree that shares every untouched node with the old one, so a change allocates O(log
 * n) nodes instead of a copy of the whole map. The empty tree is {@code null}; the static methods
 * take and return roots.
 */
final class AvlTree {
  private AvlTree() {}

  /** A node; never changed once made. */
  record Node<K, V>(
      K key, V value, @Nullable Node<K, V> left, @Nullable Node<K, V> right, int height) {}

  /** The value of {@code key}, or null. */
  static <K, V> @Nullable V get(@Nullable Node<K, V> root, K key, Comparator<? super K> cmp) {
    Node<K, V> n = root;
    while (n != null) {
      int c = cmp.compare(key, n.key());
      if (c == 0) {
        return n.value();
      }
      n = c < 0 ? n.left() : n.right();
    }
    return null;
  }

  /** The tree with {@code key} mapped to {@code value} (replacing its old value). */
  static <K, V> Node<K, V> put(@Nullable Node<K, V> n, K key, V value, Comparator<? super K> cmp) {
    if (n == null) {
      return new Node<>(key, value, null, null, 1);
    }
    int c = cmp.compare(key, n.key());
    if (c == 0) {
      return new Node<>(key, value, n.left(), n.right(), n.height());
    }
    return c < 0
        ? balance(n.key(), n.value(), put(n.left(), key, value, cmp), n.right())
        : balance(n.key(), n.value(), n.left(), put(n.right(), key, value, cmp));
  }

  /** The tree without {@code key} (the same tree if it has no such key). */
  @SuppressWarnings("ReferenceEquality") // an unchanged subtree is the very same node
  static <K, V> @Nullable Node<K, V> remove(
      @Nullable Node<K, V> n, K key, Comparator<? super K> cmp) {
    if (n == null) {
      return null;
    }
    int c = cmp.compare(key, n.key());
    if (c < 0) {
      Node<K, V> left = remove(n.left(), key, cmp);
      return left == n.left() ? n : balance(n.key(), n.value(), left, n.right());
    }
    if (c > 0) {
      Node<K, V> right = remove(n.right(), key, cmp);
      return right == n.right() ? n : balance(n.key(), n.value(), n.left(), right);
    }
    if (n.left() == null) {
      return n.right();
    }
    if (n.right() == null) {
      return n.left();
    }
    Node<K, V> min = n.right();
    while (min.left() != null) {
      min = min.left();
    }
    return balance(min.key(), min.value(), n.left(), removeMin(n.right()));
  }

  private static <K, V> @Nullable Node<K, V> removeMin(Node<K, V> n) {
    Node<K, V> left = n.left();
    return left == null ? n.right() : balance(n.key(), n.value(), removeMin(left), n.right());
  }

  /** The values in key order, mapped. */
  static <K, V, T> Iterator<T> values(@Nullable Node<K, V> root, Function<V, T> map) {
    ArrayDeque<Node<K, V>> path = new ArrayDeque<>();
    pushLeft(path, root);
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return !path.isEmpty();
      }

      @Override
      public T next() {
        Node<K, V> n = path.poll();
        if (n == null) {
          throw new NoSuchElementException();
        }
        pushLeft(path, n.right());
        return map.apply(n.value());
      }
    };
  }

  /**
   * Gives {@code action} the values in key order, without an iterator (recursion: O(log n) deep).
   */
  static <K, V> void forEach(@Nullable Node<K, V> n, Consumer<? super V> action) {
    for (Node<K, V> x = n; x != null; x = x.right()) {
      forEach(x.left(), action);
      action.accept(x.value());
    }
  }

  private static <K, V> void pushLeft(ArrayDeque<Node<K, V>> path, @Nullable Node<K, V> n) {
    for (Node<K, V> x = n; x != null; x = x.left()) {
      path.push(x);
    }
  }

  private static int height(@Nullable Node<?, ?> n) {
    return n == null ? 0 : n.height();
  }

  private static <K, V> Node<K, V> node(
      K key, V value, @Nullable Node<K, V> left, @Nullable Node<K, V> right) {
    return new Node<>(key, value, left, right, 1 + Math.max(height(left), height(right)));
  }

  private static <K, V> Node<K, V> balance(
      K key, V value, @Nullable Node<K, V> left, @Nullable Node<K, V> right) {
    int diff = height(left) - height(right);
    if (diff > 1 && left != null) {
      if (height(left.left()) >= height(left.right())) {
        return node(left.key(), left.value(), left.left(), node(key, value, left.right(), right));
      }
      Node<K, V> lr = java.util.Objects.requireNonNull(left.right());
      return node(
          lr.key(),
          lr.value(),
          node(left.key(), left.value(), left.left(), lr.left()),
          node(key, value, lr.right(), right));
    }
    if (diff < -1 && right != null) {
      if (height(right.right()) >= height(right.left())) {
        return node(
            right.key(), right.value(), node(key, value, left, right.left()), right.right());
      }
      Node<K, V> rl = java.util.Objects.requireNonNull(right.left());
      return node(
          rl.key(),
          rl.value(),
          node(key, value, left, rl.left()),
          node(right.key(), right.value(), rl.right(), right.right()));
    }
    return node(key, value, left, right);
  }
}
