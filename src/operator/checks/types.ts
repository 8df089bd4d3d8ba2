/** One line of `switchyard doctor` (and of the checks `serve` runs at start). */
import type { PublicClient } from 'viem';
import type { OperatorKeys } from '../../intents/operator-from-env.ts';
import type { ChainConfig } from '../../internal/config-types.ts';

export type CheckStatus = 'ok' | 'warn' | 'fail';

export type CheckName =
  | 'keys'
  | 'fee-collector'
  | 'database'
  | 'rpc'
  | 'contracts'
  | 'attester'
  | 'relayer-gas'
  | 'solver-gas'
  | 'solver-inventory';

export interface CheckResult {
  check: CheckName;
  /** Set for the checks made on one chain. */
  chainId?: number;
  status: CheckStatus;
  message: string;
  /** For warn and fail: what to do, in one line. */
  fix?: string;
}

/** What a check on one chain reads from. */
export interface ChainCheckContext {
  chain: ChainConfig;
  client: PublicClient;
  operator: OperatorKeys | undefined;
}

export const ok = (check: CheckName, message: string, chainId?: number): CheckResult => ({
  check,
  status: 'ok',
  message,
  ...(chainId !== undefined && { chainId }),
});

export const problem = (
  status: 'warn' | 'fail',
  check: CheckName,
  message: string,
  fix: string,
  chainId?: number,
): CheckResult => ({ check, status, message, fix, ...(chainId !== undefined && { chainId }) });
