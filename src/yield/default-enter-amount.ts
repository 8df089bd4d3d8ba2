/**
 * What an enter action deposits when `args` names no amount: everything the wallet holds of the market's
 * token, capped at what the vault accepts for the receiver now (ERC-4626 `maxDeposit`; a deposit above it
 * reverts). When that is nothing, the one argument the caller must give is named: `args.amount`.
 */
import { type Address, erc20Abi, type PublicClient } from 'viem';
import { InvalidInputError } from '../internal/errors.ts';
import type { MarketConfig, TokenMetadata } from './types.ts';
import { vaultAbi } from './vault-abi.ts';

export interface DefaultAmountInput {
  client: PublicClient;
  market: MarketConfig;
  asset: TokenMetadata;
  wallet: Address;
  receiver: Address;
}

const GIVE_AMOUNT = 'give args.amount in whole tokens or args.amountRaw in base units';

export async function defaultEnterAmount(input: DefaultAmountInput): Promise<bigint> {
  const { client, market, asset, wallet, receiver } = input;
  const [balance, room] = await Promise.all([
    client.readContract({ address: asset.address, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }),
    client.readContract({
      address: market.vault,
      abi: vaultAbi,
      functionName: 'maxDeposit',
      args: [receiver],
    }),
  ]);
  if (balance === 0n) {
    throw new InvalidInputError(
      'args.amount',
      `is required: ${wallet} holds no ${asset.symbol} on chain ${market.chainId}, so there is nothing to deposit by default; ${GIVE_AMOUNT}`,
    );
  }
  if (room === 0n) {
    throw new InvalidInputError(
      'args.amount',
      `is required: the vault accepts no deposit for ${receiver} now (maxDeposit is 0), so there is nothing to deposit by default`,
    );
  }
  // bigints: Math.min does not take them.
  if (room < balance) return room;
  return balance;
}
