/**
 * The shares a WITHDRAW intent's owner deposits: the ones asked for (EXACT_INPUT), or, for EXACT_OUTPUT, the
 * vault's `previewWithdraw` of the deposit the route needs. That rounds the shares up, and redeeming them
 * rounds the assets down, so they redeem for at least the deposit now; a vault that earns only adds to it
 * before the origin runs (the surplus returns to the owner with the account's sweep).
 */
import type { PublicClient } from 'viem';
import { readVault } from '../../yield/index.ts';
import type { ExecutionPlan, VaultExit } from './types.ts';

export async function sizeVaultExit(
  exit: VaultExit,
  depositAmount: bigint,
  client: PublicClient,
): Promise<NonNullable<ExecutionPlan['vaultExit']>> {
  const shares = exit.shares ?? (await readVault(client, exit.vault, 'previewWithdraw', depositAmount));
  return { vault: exit.vault, shares, shareDecimals: exit.shareDecimals };
}
