/**
 * Wraps the `fetch` viem's HTTP transports call (src/chains/keep-alive-fetch.ts) so that every exchange
 * with a chain's JSON-RPC endpoint is counted, timed and, when it fails, counted as an error, by chain.
 * The chain is found from the URL (each configured chain's `rpcUrls[0]`, the one its clients use). A
 * batch is one exchange. An error is no answer (refused, timed out, aborted) or an HTTP error status;
 * a JSON-RPC error inside a 200 answer is the node's verdict on one call, which viem raises to its caller.
 */
import type { ChainConfig } from '../internal/config-types.ts';
import type { Metrics } from './metrics.ts';

type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function meterRpcFetch(fetchFn: Fetch, chains: readonly ChainConfig[], metrics: Metrics): Fetch {
  const chainByUrl = new Map<string, number>();
  // As configured and as viem's transport sends it (normalised: `http://host:port/`).
  for (const chain of chains) {
    for (const url of chain.rpcUrls) {
      chainByUrl.set(url, chain.chainId);
      chainByUrl.set(new URL(url).href, chain.chainId);
    }
  }
  return (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const chainId = chainByUrl.get(url);
    if (chainId === undefined) return fetchFn(input, init);
    const started = performance.now();
    const done = (ok: boolean) => metrics.rpcCall(chainId, ok, (performance.now() - started) / 1000);
    return fetchFn(input, init).then(
      (response) => {
        done(response.ok);
        return response;
      },
      (error: unknown) => {
        done(false);
        throw error;
      },
    );
  };
}
