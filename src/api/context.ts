/** What every handler gets: the server's dependencies (built once) and the caller (per request). */
import type { ChainConfig } from '../internal/config-types.ts';
import { ChainNotSupportedError } from '../internal/errors.ts';
import type { Logger } from '../internal/logger.ts';
import type { Dialect } from './dialect.ts';
import type { MethodName, MethodRequest, MethodResponse } from './schemas/methods.ts';

export interface CallContext {
  /** The caller's project; undefined only for the public methods (Ping, Clock, RuntimeStatus). */
  projectId: number | undefined;
  method: MethodName;
  dialect: Dialect;
  /** The request's id (its X-Request-Id): put it in log lines about this call. */
  requestId?: string | undefined;
  /** Aborted when the client goes away before the answer (long polls stop waiting). */
  signal?: AbortSignal | undefined;
  /**
   * Calls `listener.clientLeft()` once if the client goes away before the answer is written (at once
   * when it has already gone). Lighter than `signal` for a call held by the thousand: no
   * AbortController, and nothing to remove (it is dropped with the response).
   */
  onClientLeave?(listener: ClientLeaveListener): void;
}

/** Told when a call's client goes away; an object, so a held call can be its own listener. */
export interface ClientLeaveListener {
  clientLeft(): void;
}

export type Handler<M extends MethodName> = (
  input: MethodRequest<M>,
  ctx: CallContext,
) => Promise<MethodResponse<M>> | MethodResponse<M>;

/** Handlers supplied from outside the API layer (the intent engine, yield); absent ones answer Unavailable. */
export type ApiServices = { [M in MethodName]?: Handler<M> };

/** USD prices: a number per token, or undefined when the source has none. */
export interface PriceSource {
  getPriceUsd(chainId: number, tokenAddress: string): Promise<number | undefined> | number | undefined;
  /** When the price served for this token was read; absent or undefined means "now". */
  updatedAt?(chainId: number, tokenAddress: string): Date | undefined;
}

export interface ApiDeps {
  chains: readonly ChainConfig[];
  chainById: ReadonlyMap<number, ChainConfig>;
  prices?: PriceSource | undefined;
  /** Database health for RuntimeStatus; absent means no database is attached. */
  checkDatabase?: (() => Promise<void>) | undefined;
  /** Chains the operator must act on (src/solver/start-chain-health-monitor.ts), for RuntimeStatus. */
  chainHealth?: { degraded(): ReadonlyMap<number, readonly string[]> } | undefined;
  log: Logger;
  version: string;
  startedAt: Date;
  now: () => Date;
  /** The server's own base URL (`http://host:port`) once it listens; undefined before. */
  publicUrl?: (() => string | undefined) | undefined;
}

/** The configured chain with this id, or ChainNotSupportedError naming the request field. */
export function requireChain(deps: ApiDeps, chainId: number, field: string): ChainConfig {
  const chain = deps.chainById.get(chainId);
  if (!chain) throw new ChainNotSupportedError(field, chainId);
  return chain;
}
