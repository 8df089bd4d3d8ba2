/**
 * YieldCreateEnterAction: the two calls that deposit into a market, `approve(vault, amount)` on the token
 * then `deposit(amount, receiver)` on the vault, for the wallet to sign and send (the API shows them in
 * the spec's form and the 0.18.4 client's, src/api/methods/yield/).
 *
 * The deposit calldata is also what a cross-chain intent carries as its destination call: an amount word
 * equal to the quoted destination amount (or the 0xdeadbeef… placeholder passed as `amountRaw`) is filled
 * at execution with what actually arrived (docs/yield.md, docs/routing.md).
 */
import { type Address, encodeFunctionData, erc20Abi, type Hex, type PublicClient } from 'viem';
import type { MarketReader } from './create-market-reader.ts';
import { defaultEnterAmount } from './default-enter-amount.ts';
import type { MarketLookup } from './find-market.ts';
import { parseEnterArgs } from './parse-enter-args.ts';
import type { MarketConfig, VaultMetadata } from './types.ts';
import { vaultAbi } from './vault-abi.ts';

export interface EnterActionDeps {
  lookup: MarketLookup;
  reader: MarketReader;
  /** For the wallet's balance when `args` names no amount. */
  getClient(chainId: number): PublicClient;
}

export interface EnterRequest {
  earnMarketId: string;
  /** The wallet that deposits (and signs both calls). */
  userWalletAddress: string;
  /** `{ amount?, amountRaw?, receiverAddress? }` as the caller sent it (parse-enter-args.ts). */
  args?: unknown;
}

/** A call for the wallet to send: no native value, vaults take the ERC-20. */
export interface WalletCall {
  to: Address;
  data: Hex;
}

export interface EnterAction {
  market: MarketConfig;
  metadata: VaultMetadata;
  wallet: Address;
  receiver: Address;
  /** Base units of the market's token. */
  amount: bigint;
  /** Sent in this order by the wallet. */
  approve: WalletCall;
  deposit: WalletCall;
}

export function createEnterAction(deps: EnterActionDeps): (request: EnterRequest) => Promise<EnterAction> {
  return async (input) => {
    const market = deps.lookup.byId(input.earnMarketId);
    const wallet = input.userWalletAddress as Address;
    const metadata = await deps.reader.metadata(market);
    const args = parseEnterArgs(input.args, wallet, metadata.asset.decimals);
    const { receiver } = args;
    const amount =
      args.amount ??
      (await defaultEnterAmount({
        client: deps.getClient(market.chainId),
        market,
        asset: metadata.asset,
        wallet,
        receiver,
      }));
    return {
      market,
      metadata,
      wallet,
      receiver,
      amount,
      approve: {
        to: metadata.asset.address,
        data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [market.vault, amount] }),
      },
      deposit: {
        to: market.vault,
        data: encodeFunctionData({ abi: vaultAbi, functionName: 'deposit', args: [amount, receiver] }),
      },
    };
  };
}
