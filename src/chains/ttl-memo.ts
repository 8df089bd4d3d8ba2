/**
 * One read shared by every caller of the same key for `ttlMs`: concurrent callers share the read in flight,
 * and a failed read is not kept (the next caller reads again).
 */
export interface TtlMemo<K, V> {
  get(key: K, read: () => Promise<V>): Promise<V>;
}

export function createTtlMemo<K, V>(ttlMs: number, now: () => number = Date.now): TtlMemo<K, V> {
  const entries = new Map<K, { at: number; value: Promise<V> }>();
  return {
    get(key, read) {
      const cached = entries.get(key);
      if (cached && now() - cached.at < ttlMs) return cached.value;
      const value = read();
      const entry = { at: now(), value };
      entries.set(key, entry);
      value.catch(() => {
        if (entries.get(key) === entry) entries.delete(key);
      });
      return value;
    },
  };
}
