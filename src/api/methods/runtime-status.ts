/**
 * RuntimeStatus: health of every chain's RPC (an eth_chainId probe that must answer the configured
 * id within RPC_PROBE_TIMEOUT_MS) and of the database. `healthOK` is true when all of them are healthy.
 * A chain that answers but needs the operator (the solver's inventory under a low-water mark, gas above
 * the chain's cap) stays healthy and is marked `degraded`, with the reasons in `warning`.
 */
import { hostname } from 'node:os';
import type { ChainConfig } from '../../internal/config-types.ts';
import type { ApiDeps, Handler } from '../context.ts';

/** A healthy local or hosted node answers eth_chainId in well under a second. */
export const RPC_PROBE_TIMEOUT_MS = 2_000;

interface Probe {
  name: string;
  healthy: boolean;
  error?: string;
  latency: string;
  degraded?: boolean;
  warning?: string;
}

export function createRuntimeStatus(deps: ApiDeps): Handler<'RuntimeStatus'> {
  return async () => {
    const degraded = deps.chainHealth?.degraded();
    const probes = await Promise.all([
      ...deps.chains.map((chain) =>
        probeChain(chain).then((probe) => withWarnings(probe, degraded?.get(chain.chainId))),
      ),
      ...(deps.checkDatabase ? [timed('database', deps.checkDatabase)] : []),
    ]);
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
