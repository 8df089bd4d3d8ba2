/**
 * RuntimeStatus: health of every chain's RPC (an eth_chainId probe that must answer the configured
 * id within RPC_PROBE_TIMEOUT_MS) and of the database. `healthOK` is true when all of them are healthy.
 * The method is public, so the probes' results are shared: calls while a round of probes runs wait for
 * it, and calls within PROBE_RESULTS_TTL_MS of its end get its results (uptime is always current).
 * A chain that answers but needs the operator (the solver's inventory under a low-water mark, gas above
 * the chain's cap) stays healthy and is marked `degraded`, with the reasons in `warning`.
 */
import { hostname } from 'node:os';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { ApiDeps, Handler } from '../context.ts';

/** A healthy local or hosted node answers eth_chainId in well under a second. */
export const RPC_PROBE_TIMEOUT_MS = 2_000;

/**
 * How long one round of probes answers every caller (ms): a load balancer checking every few seconds
 * still sees fresh results, and a flood of calls costs one probe per chain and one database check per
 * second instead of one per call.
 */
export const PROBE_RESULTS_TTL_MS = 1_000;

interface Probe {
  name: string;
  healthy: boolean;
  error?: string;
  latency: string;
  degraded?: boolean;
  warning?: string;
}

export function createRuntimeStatus(deps: ApiDeps): Handler<'RuntimeStatus'> {
  const probeAll = () =>
    Promise.all([
      ...deps.chains.map((chain) => probeChain(chain)),
      ...(deps.checkDatabase ? [timed('database', deps.checkDatabase)] : []),
    ]);
  // The round in flight or the last one; it expires PROBE_RESULTS_TTL_MS after it ended.
  let round: { probes: Promise<Probe[]>; expiresMs: number } | undefined;
  const currentProbes = () => {
    if (round && deps.now().getTime() < round.expiresMs) return round.probes;
    const next = { probes: probeAll(), expiresMs: Number.POSITIVE_INFINITY };
    // `timed` never rejects: every probe's failure is a result.
    void next.probes.then(() => {
      next.expiresMs = deps.now().getTime() + PROBE_RESULTS_TTL_MS;
    });
    round = next;
    return next.probes;
  };

  return async () => {
    const shared = await currentProbes();
    // Warnings come from this process's own monitor (no I/O), so they are current on every call.
    const degraded = deps.chainHealth?.degraded();
    const probes = shared.map((probe, i) => {
      const chain = deps.chains[i];
      return chain ? withWarnings(probe, degraded?.get(chain.chainId)) : probe;
    });
    const now = deps.now();
    const uptimeSeconds = Math.round((now.getTime() - deps.startedAt.getTime()) / 1000);
    return {
      status: {
        healthOK: probes.every((p) => p.healthy),
        version: deps.version,
        branch: '',
        commitHash: '',
        startTime: deps.startedAt.toISOString(),
        uptime: `${uptimeSeconds}s`,
        uptimeSeconds,
        hostname: hostname(),
        // No address screening and no Solana/Tron edge rails on this server (docs/api.md).
        walletScreeningEnabled: false,
        edgesEnabled: [],
        runnables: {},
        services: probes,
      },
    };
  };
}

function probeChain(chain: ChainConfig): Promise<Probe> {
  return timed(`chain:${chain.chainId}`, async () => {
    const url = chain.rpcUrls[0];
    if (!url) throw new Error('no RPC URL configured');
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(RPC_PROBE_TIMEOUT_MS),
    });
    const body = (await response.json()) as { result?: string };
    const id = body.result ? Number.parseInt(body.result, 16) : Number.NaN;
    if (id !== chain.chainId)
      throw new Error(`eth_chainId answered ${body.result}, expected ${chain.chainId}`);
  });
}

function withWarnings(probe: Probe, reasons: readonly string[] | undefined): Probe {
  return reasons?.length ? { ...probe, degraded: true, warning: reasons.join('; ') } : probe;
}

async function timed(name: string, check: () => Promise<void>): Promise<Probe> {
  const start = performance.now();
  try {
    await check();
    return { name, healthy: true, latency: `${Math.round(performance.now() - start)}ms` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, healthy: false, error: message, latency: `${Math.round(performance.now() - start)}ms` };
  }
}
