import { performance } from 'node:perf_hooks';

const now = () => performance.timeOrigin + performance.now();

/** Runs `changeOne` for each intent, `rate` intents per second; answers when each change began. */
export async function changeAtRate(
  intentIds: string[],
  rate: number,
  changeOne: (intentId: string) => Promise<void>,
): Promise<Record<string, number>> {
  const spacing = 1000 / rate;
  const start = now();
  const at: Record<string, number> = {};
  for (const [i, intentId] of intentIds.entries()) {
    const due = start + i * spacing;
    if (due > now()) await new Promise((r) => setTimeout(r, due - now()));
    at[intentId] = now();
    await changeOne(intentId);
  }
  return at;
}
