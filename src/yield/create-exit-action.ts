/**
 * YieldCreateExitAction: the one call that takes a position out of a market, for the wallet to sign and
 * send on the market's chain. Without an amount (or with `useMaxAmount`) it is `redeem(all shares, receiver,
 * wallet)`, which leaves nothing behind however the share price moves before it is mined; with an amount of
 * the underlying it is `withdraw(amount, receiver, wallet)`, refused above what the wallet can withdraw now
 * (ERC-4626 `maxWithdraw`). The wallet redeems its own shares, so no approval is needed.
 */
import { type Address, encodeFunctionData, formatUnits, type PublicClient } from 'viem';
import { InvalidInputError } from '../internal/errors.ts';
import type { WalletCall } from './create-enter-action.ts';
import type { MarketReader } from './create-market-reader.ts';
import type { MarketLookup } from './find-market.ts';
import { parseExitArgs } from './parse-exit-args.ts';
import { readVault } from './read-vault.ts';
import type { MarketConfig, VaultMetadata } from './types.ts';
import { vaultAbi } from './vault-abi.ts';

export interface ExitActionDeps {
  lookup: MarketLookup;
  reader: MarketReader;
  getClient(chainId: number): PublicClient;
}

export interface ExitRequest {
  earnMarketId: string;
  /** The wallet whose shares are redeemed (and who signs the call). */
  userWalletAddress: string;
  /** `{ amount?, amountRaw?, useMaxAmount?, receiverAddress? }` as the caller sent it (parse-exit-args.ts). */
  args?: unknown;
}

export interface ExitAction {
  market: MarketConfig;
  metadata: VaultMetadata;
  wallet: Address;
  receiver: Address;
  /** `redeem`: every share the wallet holds; `withdraw`: the amount asked for. */
  kind: 'redeem' | 'withdraw';
  /** Shares the call burns (for `withdraw`, what the vault says it burns now: previewWithdraw). */
  shares: bigint;
  /** Base units of the underlying the receiver gets (for `redeem`, at the share price now: previewRedeem). */
  amount: bigint;
  call: WalletCall;
}

export function createExitAction(deps: ExitActionDeps): (request: ExitRequest) => Promise<ExitAction> {
  return async (input) => {
    const market = deps.lookup.byId(input.earnMarketId);
    const wallet = input.userWalletAddress as Address;
    const metadata = await deps.reader.metadata(market);
    const { amount, receiver } = parseExitArgs(input.args, wallet, metadata.asset.decimals);
    const client = deps.getClient(market.chainId);
    const base = { market, metadata, wallet, receiver };
    if (amount === undefined) {
      const shares = await readVault(client, market.vault, 'balanceOf', wallet);
      if (shares === 0n) {
        throw new InvalidInputError(
          'userWalletAddress',
          `holds no shares of ${market.id} on chain ${market.chainId}: there is nothing to redeem`,
        );
      }
      const assets = await readVault(client, market.vault, 'previewRedeem', shares);
      const data = encodeFunctionData({
        abi: vaultAbi,
        functionName: 'redeem',
        args: [shares, receiver, wallet],
      });
      return { ...base, kind: 'redeem', shares, amount: assets, call: { to: market.vault, data } };
    }
    const most = await readVault(client, market.vault, 'maxWithdraw', wallet);
    if (amount > most) {
      const { decimals, symbol } = metadata.asset;
      throw new InvalidInputError(
        'args.amount',
        `is more than ${wallet} can withdraw from ${market.id} now: ${formatUnits(most, decimals)} ${symbol} (maxWithdraw)`,
      );
    }
    const shares = await readVault(client, market.vault, 'previewWithdraw', amount);
    const data = encodeFunctionData({
      abi: vaultAbi,
      functionName: 'withdraw',
      args: [amount, receiver, wallet],
    });
    return { ...base, kind: 'withdraw', shares, amount, call: { to: market.vault, data } };
  };
}
