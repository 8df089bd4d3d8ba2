/**
 * The server process of bench/events.ts: the real API server (assembled as `switchyard serve` does, through
 * test/harness/app.ts) serving GET /events, driven by messages from the measuring process. It counts its
 * open streams through the events observer (the hook the metrics use) and changes intents through the
 * store when told. Compiled like `switchyard` runs the app unless --tsx (see bench/wait-server.ts).
 */
import { startTestService, throwawayOperator } from '../test/harness/app.ts';
import { BENCH_CHAINS } from './fixtures/chains.ts';
import { changeAtRate } from './support/change-at-rate.ts';
import { loadIntents } from './support/load-intents.ts';
import { serveBenchMessages } from './support/serve-bench-messages.ts';

const BENCH_PROJECT = 'bench-events';

/** What the server counts beside its memory: the streams open now. */
export interface EventsCounts {
  open: number;
}

const [alpha, beta] = BENCH_CHAINS as [(typeof BENCH_CHAINS)[0], (typeof BENCH_CHAINS)[0]];

function eventsServer(): void {
  let open = 0;
  serveBenchMessages<EventsCounts>({
    project: BENCH_PROJECT,
    // COMMITTED intents with their three receipt rows at UNKNOWN.
    load: (store, projectId, count) =>
      loadIntents(projectId, count, async (intent) => {
        await store.intents.insert({
          ...intent,
          transactions: [
            { kind: 'deposit', chainId: alpha.chainId, status: 'UNKNOWN' },
            { kind: 'origin', chainId: alpha.chainId, status: 'UNKNOWN' },
            { kind: 'destination', chainId: beta.chainId, status: 'UNKNOWN' },
          ],
        });
        await store.intents.updateStatus({
          intentId: intent.intentId,
          to: 'COMMITTED',
          committedAt: new Date(),
        });
      }),
    serve: (store) =>
      startTestService({
        chains: BENCH_CHAINS,
        operator: throwawayOperator(),
        store,
        engine: { requestExecution: async () => undefined },
        rateLimit: false,
        projectName: BENCH_PROJECT,
        events: {
          observer: {
            streamsChanged: (count) => {
              open = count;
            },
          },
        },
      }),
    counts: () => ({ open }),
    // Each intent's deposit row to PENDING: one event each.
    change: (store, intentIds, rate) =>
      changeAtRate(intentIds, rate, async (intentId) => {
        await store.transactions.advance({
          intentId,
          kind: 'deposit',
          chainId: alpha.chainId,
          status: 'PENDING',
          from: ['UNKNOWN'],
        });
      }),
  });
}

eventsServer();
