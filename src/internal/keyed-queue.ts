/**
 * Runs the jobs given with one key one after another, in the order given, in this process; jobs of other
 * keys run beside them. A job runs after the previous one of its key settles, whether it failed or not.
 */
export type KeyedQueue = <T>(key: string, job: () => Promise<T>) => Promise<T>;

export function createKeyedQueue(): KeyedQueue {
  // The tail of each key's queue; a key's entry goes when its queue drains, so idle keys hold nothing.
  const tails = new Map<string, Promise<unknown>>();
  return function enqueue(key, job) {
    const run = (tails.get(key) ?? Promise.resolve()).then(job, job);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => {
      if (tails.get(key) === tail) tails.delete(key);
    });
    return run;
  };
}
