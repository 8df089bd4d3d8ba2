/**
 * The most a relayer may keep for sending a recovery (`maxFee`, in the recovered token): the recovery's gas at
 * the chain's current fee with a margin, converted at USD prices. Zero — no gasless recovery — when either
 * price is unknown or the balance does not cover the fee: the relayer is never paid more than is recovered.
 */
import { type Address, zeroAddress } from 'viem';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import { convert, isUsablePrice } from '../plan/money.ts';
import { RECOVERY_GAS, RELAY_FEE_MARGIN_DENOMINATOR, RELAY_FEE_MARGIN_NUMERATOR } from './constants.ts';
import type { RecoverableBalance, RecoveryDeps } from './types.ts';

export async function relayMaxFee(
  deps: Pick<RecoveryDeps, 'clients' | 'prices'>,
  chain: ChainConfig,
  balance: RecoverableBalance,
): Promise<bigint> {
  const client = deps.clients.get(chain.chainId);
  if (!client) return 0n;
  const feePerGas = await withChainErrors(() => client.getGasPrice(), { chainId: chain.chainId });
  const costWei = (RECOVERY_GAS * feePerGas * RELAY_FEE_MARGIN_NUMERATOR) / RELAY_FEE_MARGIN_DENOMINATOR;
  const fee = await inToken(deps, chain, balance.token, balance.decimals, costWei);
  return fee !== undefined && fee < balance.amount ? fee : 0n;
}

async function inToken(
  deps: Pick<RecoveryDeps, 'prices'>,
  chain: ChainConfig,
  token: Address,
  decimals: number,
  costWei: bigint,
): Promise<bigint | undefined> {
  if (token === zeroAddress) return costWei;
  const [nativePrice, tokenPrice] = await Promise.all([
    deps.prices.getPriceUsd(chain.chainId, zeroAddress),
    deps.prices.getPriceUsd(chain.chainId, token),
  ]);
  if (nativePrice === undefined || tokenPrice === undefined) return undefined;
  if (!isUsablePrice(nativePrice) || !isUsablePrice(tokenPrice)) return undefined;
  return convert(
    costWei,
    { decimals: chain.nativeCurrency.decimals, priceUsd: nativePrice },
    { decimals, priceUsd: tokenPrice },
  );
}
