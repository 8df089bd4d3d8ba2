/**
 * Lets a stopping worker stop signing: after stop() nothing new is journaled as signed, and stop() resolves
 * once the signatures being journaled have been, so the worker that takes a step over finds every
 * transaction this one sent (TransactionSender.stopSigning).
 */
import { SenderStoppedError } from './errors.ts';

export interface SigningGate {
  /** Journals a new signature unless signing stopped; checked and registered in one synchronous stretch. */
  journalSignature<T>(what: Record<string, unknown>, write: () => Promise<T>): Promise<T>;
  /** Nothing new is signed after this; resolves once the signatures being journaled have been. */
  stop(): Promise<void>;
}

export function createSigningGate(): SigningGate {
  // Set by stop(); the journal writes of signatures in progress, which it waits for.
  let signingStopped = false;
  const signing = new Set<Promise<unknown>>();
  return {
    journalSignature(what, write) {
      if (signingStopped) {
        return Promise.reject(
          new SenderStoppedError('this worker is stopping: nothing new is signed', { details: what }),
        );
      }
      const written = write();
      const tracked = written.catch(() => undefined);
      signing.add(tracked);
      void tracked.then(() => signing.delete(tracked));
      return written;
    },
    async stop() {
      signingStopped = true;
      await Promise.all(signing);
    },
  };
}
