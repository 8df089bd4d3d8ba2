/**
 * The API listener's health endpoints, as a load balancer reads them (src/api/health-routes.ts), on a devnet
 * with the whole service: liveness answers 200 whatever else is down; readiness answers 200 while the
 * database and every chain answer, and 503 naming what does not (a chain whose node stopped, a database that
 * is gone), while liveness stays 200.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROBE_RESULTS_TTL_MS } from '../../src/api/methods/runtime-status.ts';
import { startTestSwitchyard, type TestSwitchyard } from '../harness/app.ts';

interface Readiness {
  ready: boolean;
  checks: { name: string; healthy: boolean; error?: string }[];
}

let app: TestSwitchyard;
beforeAll(async () => {
  app = await startTestSwitchyard();
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

async function get(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${app.url}${path}`);
  return { status: response.status, body: await response.json() };
}

/** Past the probes' shared round, so the next call probes again. */
const nextProbeRound = () => new Promise((r) => setTimeout(r, PROBE_RESULTS_TTL_MS + 200));

it('is live and ready while the database and every chain answer', async () => {
  expect(await get('/healthz')).toEqual({ status: 200, body: { live: true } });
  const { status, body } = await get('/readyz');
  const chains = app.net.chains.map((c) => `chain:${c.entry.chainId}`);
  expect({ status, body }).toEqual({
    status: 200,
    body: {
      ready: true,
      checks: [...chains, 'database'].map((name) => ({ name, healthy: true })),
    },
  });
});

it('is not ready while a chain does not answer, and names it; still live', async () => {
  const beta = app.net.chains[1]!;
  await app.net.stopChain(beta.entry.chainId);
  try {
    await nextProbeRound();
    const { status, body } = (await get('/readyz')) as { status: number; body: Readiness };
    expect(status).toBe(503);
    expect(body.ready).toBe(false);
    expect(body.checks.filter((c) => !c.healthy).map((c) => c.name)).toEqual([`chain:${beta.entry.chainId}`]);
    expect(body.checks.find((c) => !c.healthy)?.error).toBeTruthy();
    expect((await get('/healthz')).status).toBe(200);
  } finally {
    await app.net.restartChain(beta.entry.chainId);
  }
  await nextProbeRound();
  expect((await get('/readyz')).status).toBe(200);
}, 60_000);

it('is not ready once its database is gone; still live', async () => {
  await app.store.close();
  await nextProbeRound();
  const { status, body } = (await get('/readyz')) as { status: number; body: Readiness };
  expect(status).toBe(503);
  expect(body.checks.filter((c) => !c.healthy).map((c) => c.name)).toEqual(['database']);
  expect((await get('/healthz')).status).toBe(200);
});
