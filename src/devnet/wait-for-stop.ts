/**
 * Keeps a foreground command alive until Ctrl-C (SIGINT) or SIGTERM, or until a chain dies, then runs
 * the shutdown registry. Listen first (before starting anything), so that a signal that arrives while
 * the devnet is still starting does not kill the process and orphan the chains: the stop then happens
 * as soon as the start is done.
 */
import type { Logger } from '../internal/logger.ts';
import type { Shutdown } from '../internal/shutdown.ts';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface StopSignals {
  /** Resolves with the first stop signal received. */
  received: Promise<NodeJS.Signals>;
  /** Removes the listeners (the default signal behaviour returns). */
  dispose(): void;
}

export function listenForStopSignals(): StopSignals {
  let onSignal: (signal: NodeJS.Signals) => void = () => {};
  const received = new Promise<NodeJS.Signals>((resolve) => {
    onSignal = resolve;
  });
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    received,
    dispose: () => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}

/** Returns the process exit code: 0 for a requested stop, 1 when a chain died on its own. */
export async function waitForStop(
  shutdown: Shutdown,
  signals: StopSignals,
  chainExited: Promise<{ chainId: number; code: number | null }>,
  log: Logger,
): Promise<number> {
  const outcome = await Promise.race([
    signals.received.then((signal) => ({ kind: 'signal' as const, signal })),
    chainExited.then((exit) => ({ kind: 'crash' as const, ...exit })),
  ]);
  if (outcome.kind === 'signal') log.info('stopping…', { signal: outcome.signal });
  else log.error('a devnet chain exited unexpectedly; stopping the others', outcome);
  const started = Date.now();
  await shutdown.shutdown();
  log.info('stopped', { ms: Date.now() - started });
  return outcome.kind === 'signal' ? 0 : 1;
}
