/**
 * chain-restart.test.ts's outage once on PostgreSQL (DATABASE_URL, or an embedded server started for this
 * file: the Postgres suite never skips): beta's anvil stopped while the intent's fill waits in its mempool
 * (the solver's approve of the first USDC fill is mined on the way), restarted from its state file; the
 * fill step retries meanwhile, RuntimeStatus reports beta unhealthy, and afterwards the stored fill is
 * re-broadcast under its hash, the intent succeeds and settles, and the audit finds each transaction once
 * and every token conserved (support/intent-across-outage.ts).
 */
import { it } from 'vitest';
import { intentAcrossOutage } from './support/intent-across-outage.ts';
import { INTENT_TIMEOUT_MS, useResilienceSuite } from './support/suite.ts';

const suite = useResilienceSuite({ service: () => ({ dialect: 'postgres' }) });

it(
  'Postgres: beta stops with the fill in its mempool and restarts: re-broadcast as stored, the intent succeeds',
  async () => {
    await intentAcrossOutage(suite, { down: suite.beta, purpose: 'solver-fill', step: 'fill' });
  },
  INTENT_TIMEOUT_MS * 2,
);
