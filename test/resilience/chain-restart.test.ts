/**
 * Real chain outages at every chain-bound step of a cross-chain intent: the anvil of one chain is stopped
 * (SIGTERM: it writes its state file) while one of the intent's transactions waits in its mempool, and
 * started again on the same port from its state file (test/harness/devnet.ts `stopChain` /
 * `restartChain`). anvil keeps blocks and receipts in its state file but not its mempool, so that
 * transaction is lost with the process. One devnet, five intents in sequence, each losing one transaction:
 *
 * - beta, the solver's approve (the first fill of USDC on beta; a transaction no intent owns), then the fill;
 * - alpha, the relayer's origin execution;
 * - beta, the relayer's destination execution (sent right behind the fill: both are in the pool);
 * - alpha, the relayer's settle (after the user's SUCCEEDED).
 *
 * While the chain is down the step fails with a retryable chain error and retries, the intent is not
 * failed, and RuntimeStatus (the official client) reports that chain unhealthy. After the restart the
 * engine re-broadcasts the stored signed transaction (the same hash, never re-signed), the intent succeeds
 * and settles, the recipient is paid the quoted amount once, and the audit finds every operator
 * transaction sent once and every token conserved (support/intent-across-outage.ts).
 */
import { describe, it } from 'vitest';
import { intentAcrossOutage } from './support/intent-across-outage.ts';
import { INTENT_TIMEOUT_MS, useResilienceSuite } from './support/suite.ts';

const suite = useResilienceSuite();

describe('a chain stops with an intent transaction in its mempool and restarts from its state', () => {
  it(
    'beta, the solver approve: re-broadcast as stored, the intent succeeds',
    async () => {
      const purpose = `solver-approve:${suite.beta.entry.tokens.USDC!.toLowerCase()}`;
      await intentAcrossOutage(suite, { down: suite.beta, purpose, step: 'fill' });
    },
    INTENT_TIMEOUT_MS * 2,
  );

  it(
    'beta, the fill: re-broadcast as stored, the intent succeeds',
    async () => {
      await intentAcrossOutage(suite, { down: suite.beta, purpose: 'solver-fill', step: 'fill' });
    },
    INTENT_TIMEOUT_MS * 2,
  );

  it(
    'alpha, the origin execution: re-broadcast as stored, the intent succeeds',
    async () => {
      await intentAcrossOutage(suite, { down: suite.alpha, purpose: 'origin-execute', step: 'origin' });
    },
    INTENT_TIMEOUT_MS * 2,
  );

  it(
    'beta, the destination execution: re-broadcast as stored, the intent succeeds',
    async () => {
      // The execution goes out right behind the fill, into the pool with it: beta stops with both there.
      await intentAcrossOutage(suite, {
        down: suite.beta,
        purpose: ['destination-execute-early', 'destination-execute'],
        keep: ['solver-fill'],
        step: 'destination',
      });
    },
    INTENT_TIMEOUT_MS * 2,
  );

  it(
    'alpha, the settle: re-broadcast as stored, the order settles',
    async () => {
      await intentAcrossOutage(suite, { down: suite.alpha, purpose: 'settle-batch', step: 'settle' });
    },
    INTENT_TIMEOUT_MS * 2,
  );
});
