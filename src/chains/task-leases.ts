/**
 * What the chain code needs of task leases: work that is not an intent's step and must be done by one of
 * several workers at a time (a chain's restore of lost transactions, the solver's approve of a token). The
 * store's lease holder (src/store/task-lease-holder.ts) implements it across processes; a sender built
 * without one uses local-task-leases.ts, which only keeps this process's own jobs apart.
 */
export interface TaskLeaseHolder {
  /** Takes or renews `task` for this worker; true while this worker holds it. */
  hold(task: string): Promise<boolean>;
  /** Gives `task` up if this worker holds it (stopping: another worker takes it at once). */
  release(task: string): Promise<void>;
  /** Runs `job` holding `task`, or resolves `{ ran: false }` at once when another worker holds it. */
  runIfFree<T>(task: string, job: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  /** Runs `job` holding `task`, waiting until the worker holding it finishes (or its lease runs out). */
  runExclusive<T>(task: string, job: () => Promise<T>): Promise<T>;
}
