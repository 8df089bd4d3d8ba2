/**
 * Every precondition an operator can get wrong, checked at once: the keys, the fee collector and the
 * database, then for each chain its RPC, our contracts, the attester, the relayer's and solver's gas and the
 * solver's inventory. `switchyard doctor` prints them; `switchyard serve` runs them before it starts. A chain
 * whose RPC fails is not checked further (every other line would fail for the same reason).
 */
import { createPublicClient, http, type PublicClient } from 'viem';
import type { OperatorKeys } from '../../intents/operator-from-env.ts';
import type { ChainConfig, SwitchyardConfig } from '../../internal/config-types.ts';
import { shortReason } from '../connect-chain.ts';
import { currentFeePerGas } from '../current-fee-per-gas.ts';
import { checkAttester } from './check-attester.ts';
import { checkContracts } from './check-contracts.ts';
import { checkDatabase } from './check-database.ts';
import { checkRelayerGas, checkSolverGas } from './check-gas.ts';
import { checkFeeCollector, checkKeys } from './check-keys.ts';
import { checkRpc } from './check-rpc.ts';
import { checkSolverInventory } from './check-solver-inventory.ts';
import { CHECK_RPC_TIMEOUT_MS, HEAD_ADVANCE_WAIT_MS } from './constants.ts';
import { type ChainCheckContext, type CheckName, type CheckResult, problem } from './types.ts';

export interface OperatorChecksInput {
  config: SwitchyardConfig;
  env: Record<string, string | undefined>;
  /** How long a head may stand still (ms); HEAD_ADVANCE_WAIT_MS unless the operator says otherwise. */
  headWaitMs?: number | undefined;
}

export async function runOperatorChecks(input: OperatorChecksInput): Promise<CheckResult[]> {
  const { config, env } = input;
  const { result: keys, operator } = checkKeys(env);
  const headWaitMs = input.headWaitMs ?? HEAD_ADVANCE_WAIT_MS;
  const [database, chains] = await Promise.all([
    checkDatabase(config),
    Promise.all(config.chains.map((chain) => checkChain(chain, operator, headWaitMs))),
  ]);
  const feeCollector = checkFeeCollector(env, operator);
  return [keys, ...(feeCollector ? [feeCollector] : []), database, ...chains.flat()];
}

async function checkChain(
  chain: ChainConfig,
  operator: OperatorKeys | undefined,
  headWaitMs: number,
): Promise<CheckResult[]> {
  const client = createPublicClient({
    transport: http(chain.rpcUrls[0], { timeout: CHECK_RPC_TIMEOUT_MS, retryCount: 1 }),
  }) as PublicClient;
  const ctx: ChainCheckContext = { chain, client, operator };
  const guard = <T>(check: CheckName, run: () => Promise<T>) =>
    run().catch((error): CheckResult => {
      const fix = `check chain ${chain.chainId}'s RPC and the addresses in its config`;
      return problem('fail', check, `could not be checked: ${shortReason(error)}`, fix, chain.chainId);
    });
  const rpc = await guard('rpc', () => checkRpc(ctx, headWaitMs));
  if (rpc.status === 'fail') return [rpc];
  const contracts = await guard('contracts', () => checkContracts(ctx));
  if (contracts.status === 'fail') return [rpc, contracts];
  const feePerGas = await currentFeePerGas(client);
  const rest = await Promise.all([
    guard('attester', () => checkAttester(ctx)),
    guard('relayer-gas', () => checkRelayerGas(ctx, feePerGas)),
    guard('solver-gas', () => checkSolverGas(ctx, feePerGas)),
    guard('solver-inventory', () => checkSolverInventory(ctx)),
  ]);
  return [rpc, contracts, ...rest.flat().filter((r): r is CheckResult => r !== undefined)];
}
