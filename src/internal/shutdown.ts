/**
 * One shutdown registry per process: subsystems register their teardown, and `shutdown()` runs them
 * in reverse order of registration (last started, first stopped), once.
 */
export type Teardown = () => Promise<void> | void;

export interface Shutdown {
  add(name: string, teardown: Teardown): void;
  shutdown(): Promise<void>;
  readonly isShuttingDown: boolean;
}

export function createShutdown(onError: (name: string, error: unknown) => void = () => {}): Shutdown {
  const teardowns: { name: string; teardown: Teardown }[] = [];
  let running: Promise<void> | undefined;
  return {
    add(name, teardown) {
      teardowns.push({ name, teardown });
    },
    shutdown() {
      running ??= (async () => {
        for (const { name, teardown } of teardowns.reverse()) {
          try {
            await teardown();
          } catch (error) {
            onError(name, error);
          }
        }
      })();
      return running;
    },
    get isShuttingDown() {
      return running !== undefined;
    },
  };
}
