/**
 * A worker's store that the test can cut off from the database: while cut, every repository call fails
 * with DatabaseUnavailableError, as it does for a process partitioned from Postgres. Such a worker renews
 * nothing and writes nothing: for the other workers it is dead (its leases run out), which is what a SIGKILL
 * looks like from the database. It also counts the calls it passes on, by `repo.method`.
 */
import { DatabaseUnavailableError } from '../../../src/store/errors.ts';
import type { Store } from '../../../src/store/types.ts';

export interface CutOffStore {
  store: Store;
  cut(): void;
  reconnect(): void;
  /** Calls passed on to the database, by `repo.method` (e.g. `intents.listByStatus`). */
  calls(name: string): number;
}

export function cutOffStore(inner: Store): CutOffStore {
  let cut = false;
  const counts = new Map<string, number>();
  const wrapRepo = (repoName: string, repo: object) =>
    new Proxy(repo, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver);
        if (typeof value !== 'function') return value;
        const name = `${repoName}.${String(prop)}`;
        return (...args: unknown[]) => {
          if (cut)
            return Promise.reject(new DatabaseUnavailableError(new Error('connect ECONNREFUSED (cut off)')));
          counts.set(name, (counts.get(name) ?? 0) + 1);
          return value.apply(target, args);
        };
      },
    });
  const store = new Proxy(inner, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      // The repositories; `events`, `capabilities`, `ping` and `close` pass through.
      if (typeof value === 'object' && value !== null && prop !== 'events' && prop !== 'capabilities') {
        return wrapRepo(String(prop), value);
      }
      return value;
    },
  });
  return {
    store,
    cut: () => {
      cut = true;
    },
    reconnect: () => {
      cut = false;
    },
    calls: (name) => counts.get(name) ?? 0,
  };
}
