/**
 * A read client for an RPC URL given on an operator command's line, with the chain id it reports. The
 * operator commands run once and wait for a few receipts, so they poll faster than viem's 4 s default.
 */
import { type Chain, createPublicClient, defineChain, http, type PublicClient, type Transport } from 'viem';
import { SwitchyardError } from '../internal/errors.ts';

/** Receipts of a deployment are waited for one by one; 4 polls a second costs a node nothing and keeps a local chain's deploy short. */
export const OPERATOR_POLLING_INTERVAL_MS = 250;
/** An RPC that has not answered in this long (ms) is reported as down rather than waited on. */
export const OPERATOR_RPC_TIMEOUT_MS = 15_000;

export interface ConnectedChain {
  chainId: number;
  rpcUrl: string;
  chain: Chain;
  publicClient: PublicClient<Transport, Chain>;
}

/** The RPC did not answer eth_chainId. */
export class RpcUnreachableError extends SwitchyardError {
  override readonly name = 'RpcUnreachableError';
}

export function transportFor(rpcUrl: string) {
  return http(rpcUrl, { timeout: OPERATOR_RPC_TIMEOUT_MS });
}

export async function connectChain(rpcUrl: string, name?: string): Promise<ConnectedChain> {
  const probe = createPublicClient({ transport: transportFor(rpcUrl) });
  let chainId: number;
  try {
    chainId = await probe.getChainId();
  } catch (cause) {
    throw new RpcUnreachableError(
      `${redactRpcUrl(rpcUrl)} did not answer eth_chainId: ${shortReason(cause)}`,
      {
        details: { rpcUrl: redactRpcUrl(rpcUrl) },
        cause,
      },
    );
  }
  const chain = defineChain({
    id: chainId,
    name: name ?? `chain ${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
  const publicClient = createPublicClient({
    chain,
    transport: transportFor(rpcUrl),
    pollingInterval: OPERATOR_POLLING_INTERVAL_MS,
  });
  return { chainId, rpcUrl, chain, publicClient };
}

/**
 * An RPC URL as it may be printed: hosted endpoints carry their API key in the path or the query, so only
 * the scheme and host are shown.
 */
export function redactRpcUrl(rpcUrl: string): string {
  if (!URL.canParse(rpcUrl)) return 'the RPC URL';
  const url = new URL(rpcUrl);
  const hidden = url.pathname.length > 1 || url.search !== '' || url.username !== '';
  return `${url.protocol}//${url.host}${hidden ? '/…' : ''}`;
}

/** The first line of an error's message (viem's carry several paragraphs of context). */
export function shortReason(error: unknown): string {
  const message =
    error instanceof Error
      ? ((error as { shortMessage?: string }).shortMessage ?? error.message)
      : String(error);
  const first = message.split('\n')[0] ?? message;
  // viem's "HTTP request failed." says nothing of why; the innermost cause does (connection refused, a
  // name not found, a port fetch refuses).
  const root = rootCause(error);
  if (!root || first.includes(root)) return first;
  return `${first.replace(/\.$/, '')} (${root === 'bad port' ? 'bad port: fetch refuses to connect to that port' : root})`;
}

function rootCause(error: unknown): string | undefined {
  let cause = error instanceof Error ? error.cause : undefined;
  let message: string | undefined;
  for (let depth = 0; cause instanceof Error && depth < 8; depth++) {
    message = cause.message.split('\n')[0];
    cause = cause.cause;
  }
  return message || undefined;
}
