/**
 * The service's viem clients, one per configured chain, over the keep-alive `fetch` of
 * keep-alive-fetch.ts. With `batch`, a chain's `rpcBatchSize` above 1 sends the requests issued within
 * the same millisecond as one JSON-RPC batch (viem's batch scheduler: a 0 ms timer, which Node runs after
 * 1 ms): fewer HTTP exchanges for the engine, whose many intents in flight read and send side by side.
 * Quotes take the clients without it, since the gathering wait would add to each read they wait for.
 */
import { createPublicClient, type HttpTransportConfig, http, type PublicClient } from 'viem';
import type { ChainConfig } from '../internal/config-types.ts';

/** Local chains answer in milliseconds; viem's 4 s default would make every wait needlessly slow. */
const CHAIN_POLLING_INTERVAL_MS = 250;

export interface ChainClientsOptions {
  fetchFn: NonNullable<HttpTransportConfig['fetchFn']>;
  /** Batch requests on chains whose `rpcBatchSize` is above 1 (the engine's clients). */
  batch: boolean;
}

export function createChainClients(
  chains: readonly ChainConfig[],
  { fetchFn, batch }: ChainClientsOptions,
): Map<number, PublicClient> {
  return new Map(
    chains.map((c) => {
      const batchSize = batch ? (c.rpcBatchSize ?? 1) : 1;
      const transport = http(c.rpcUrls[0], {
        fetchFn,
        maxResponseBodySize: false,
        ...(batchSize > 1 && { batch: { batchSize, wait: 0 } }),
      });
      return [
        c.chainId,
        createPublicClient({ transport, pollingInterval: CHAIN_POLLING_INTERVAL_MS }) as PublicClient,
      ];
    }),
  );
}
