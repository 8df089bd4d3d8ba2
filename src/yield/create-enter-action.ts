/**
 * YieldCreateEnterAction: the unsigned transactions that deposit into a market, `approve(vault, amount)` on
 * the token then `deposit(amount, receiver)` on the vault, in the spec's form (`payload.transactions[]`
 * with `to`, `data`, `value`) and the 0.18.4 client's (`action.transactions[].unsignedTransaction`).
 *
 * The deposit calldata is also what a cross-chain intent carries as its destination call: an amount word
 * equal to the quoted destination amount (or the 0xdeadbeef… placeholder passed as `amountRaw`) is filled
 * at execution with what actually arrived (docs/yield.md, docs/routing.md).
 */
import { type Address, encodeFunctionData, erc20Abi, formatUnits, type Hex, type PublicClient } from 'viem';
import type { Handler } from '../api/context.ts';
import { NotFoundError } from '../api/errors/rpc-errors.ts';
import type { MarketReader } from './create-market-reader.ts';
import { defaultEnterAmount } from './default-enter-amount.ts';
import { normaliseMarketId } from './market-id.ts';
import { parseEnterArgs } from './parse-enter-args.ts';
import type { MarketConfig } from './types.ts';
import { vaultAbi } from './vault-abi.ts';

export interface EnterActionDeps {
  markets: readonly MarketConfig[];
  reader: MarketReader;
  /** For the wallet's balance when `args` names no amount. */
  getClient(chainId: number): PublicClient;
}

export interface UnsignedTransaction {
  to: Address;
  data: Hex;
  /** Native value in wei, a decimal string: always "0", vaults take the ERC-20. */
  value: string;
  from: Address;
  chainId: string;
}

export function createEnterAction(deps: EnterActionDeps): Handler<'YieldCreateEnterAction'> {
  const byId = new Map(deps.markets.map((m) => [normaliseMarketId(m.id), m]));
  return async (input) => {
    const market = byId.get(normaliseMarketId(input.earnMarketId));
    if (!market) {
      throw new NotFoundError(
        `earnMarketId: no yield market '${input.earnMarketId}'; list them with YieldGetMarkets`,
        {
          details: { earnMarketId: input.earnMarketId },
        },
      );
    }
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
    const tx = (to: Address, data: Hex): UnsignedTransaction => ({
      to,
      data,
      value: '0',
      from: wallet,
      chainId: String(market.chainId),
    });
    const approve = tx(
      metadata.asset.address,
      encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [market.vault, amount] }),
    );
    const deposit = tx(
      market.vault,
      encodeFunctionData({ abi: vaultAbi, functionName: 'deposit', args: [amount, receiver] }),
    );
    const summary = {
      marketId: market.id,
      chainId: String(market.chainId),
      amount: formatUnits(amount, metadata.asset.decimals),
      amountRaw: amount.toString(),
      tokenAddress: metadata.asset.address,
      vaultAddress: market.vault,
      receiverAddress: receiver,
    };
    return {
      payload: { ...summary, transactions: [approve, deposit] },
      action: {
        intent: 'enter',
        type: market.type === 'lending' ? 'LEND' : 'DEPOSIT',
        status: 'CREATED',
        ...summary,
        transactions: [
          step(0, 'APPROVAL', `Approve ${metadata.asset.symbol}`, market, approve),
          step(
            1,
            market.type === 'lending' ? 'SUPPLY' : 'DEPOSIT',
            `Deposit into ${market.name ?? metadata.name}`,
            market,
            deposit,
          ),
        ],
      },
    };
  };
}

function step(
  index: number,
  type: string,
  title: string,
  market: MarketConfig,
  unsignedTransaction: UnsignedTransaction,
) {
  return {
    id: `${market.id}-enter-${index}`,
    stepIndex: index,
    type,
    title,
    status: 'CREATED',
    network: market.network,
    chainId: String(market.chainId),
    unsignedTransaction,
  };
}
