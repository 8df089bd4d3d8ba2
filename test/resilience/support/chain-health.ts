/** What RuntimeStatus (through the official client, as an operator's dashboard reads it) says of each chain. */
import { setTimeout as sleep } from 'node:timers/promises';
import { PROBE_RESULTS_TTL_MS } from '../../../src/api/methods/runtime-status.ts';
import type { ResilienceService } from './resilience-service.ts';

/**
 * `{ 'chain:<id>': healthy }` for every chain the service runs, as probed now: RuntimeStatus shares one
 * round of probes among callers for PROBE_RESULTS_TTL_MS, so the call waits that long first and never sees
 * a round from before the change the test just made.
 */
export async function chainHealth(svc: ResilienceService): Promise<Record<string, boolean>> {
  await sleep(PROBE_RESULTS_TTL_MS);
  const { status } = await svc.api().runtimeStatus();
  return Object.fromEntries(
    status.services.filter((s) => s.name.startsWith('chain:')).map((s) => [s.name, s.healthy]),
  );
}
