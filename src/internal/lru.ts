/**
 * A least-recently-used map bounded by the total weight of its values: bytes for a cache of buffers,
 * 1 per entry for a cache bounded by count. Every way out of it (a delete, a replacement, an eviction,
 * `clear`) goes through `onRemove`, so what a cache keeps beside its entries (indexes, listeners) is
 * undone in one place. The read caches of src/api/methods/reads use it.
 */

export interface LruOptions<K, V> {
  /** Total weight kept; an entry heavier than this alone is not stored (0: nothing is). */
  maxWeight: number;
  /** A value's weight, read once when it is stored (values do not change weight while cached). */
  weigh(value: V): number;
  /** Called after an entry has left the map, whatever the reason. */
  onRemove?(key: K, value: V): void;
}

export interface Lru<K, V> {
  /** The value, marked most recently used. */
  get(key: K): V | undefined;
  /** The value, its recency left as it is. */
  peek(key: K): V | undefined;
  /**
   * Stores the value as the most recently used, after removing the key's old value and then the least
   * recently used entries until it fits. False when it is heavier than `maxWeight` (the old value is
   * gone all the same).
   */
  set(key: K, value: V): boolean;
  delete(key: K): void;
  /** Removes every entry, least recently used first. */
  clear(): void;
  readonly size: number;
  readonly weight: number;
}

export function createLru<K, V>(options: LruOptions<K, V>): Lru<K, V> {
  // A Map iterates in insertion order: re-inserting on a hit makes the first key the least recent.
  const entries = new Map<K, { value: V; weight: number }>();
  let weight = 0;

  const remove = (key: K) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    weight -= entry.weight;
    options.onRemove?.(key, entry.value);
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    peek(key) {
      return entries.get(key)?.value;
    },
    set(key, value) {
      remove(key);
      const entryWeight = options.weigh(value);
      if (entryWeight > options.maxWeight) return false;
      while (weight + entryWeight > options.maxWeight) remove(entries.keys().next().value as K);
      entries.set(key, { value, weight: entryWeight });
      weight += entryWeight;
      return true;
    },
    delete: remove,
    clear() {
      for (const key of [...entries.keys()]) remove(key);
    },
    get size() {
      return entries.size;
    },
    get weight() {
      return weight;
    },
  };
}
