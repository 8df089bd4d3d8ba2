/** What RuntimeStatus (through the official client, as an operator's dashboard reads it) says of each chain. */
import type { ResilienceService } from './resilience-service.ts';

/** `{ 'chain:<id>': healthy }` for every chain the service runs. */
export async function chainHealth(svc: ResilienceService): Promise<Record<string, boolean>> {
  const { status } = await svc.api().runtimeStatus();
  return Object.fromEntries(
    status.services.filter((s) => s.name.startsWith('chain:')).map((s) => [s.name, s.healthy]),
  );
}
