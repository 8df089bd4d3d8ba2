/**
 * The solver's inventory per chain and token, as `switchyard inventory` prints it: its balance, what open
 * orders hold of it (committed intents whose fill has not landed), what pending settlements owe it on that
 * chain (filled orders the OriginSettler has not repaid yet), what is available to new quotes, and the
 * token's low-water mark. The tokens are those the solver can be asked to fill (bridgeable ERC-20s) and
 * any token with a mark.
 */
import { type Address, erc20Abi, type PublicClient, zeroAddress } from 'viem';
import { FILL_PURPOSE } from '../engine/steps/fill.ts';
import { settleStep } from '../engine/steps/settle.ts';
import type { ChainConfig, TokenConfig } from '../internal/config-types.ts';
import { createContractRead } from '../providers/contract-read.ts';
import type { Store, TokenAmount } from '../store/types.ts';

const readBalance = createContractRead(erc20Abi, 'balanceOf');

export interface InventoryLine {
  chainId: number;
  chainName: string;
  token: Pick<TokenConfig, 'symbol' | 'address' | 'decimals'>;
  /** Undefined when the chain could not be read (`error` says why). */
  balance?: bigint;
  held: bigint;
  owed: bigint;
  /** balance − held (0 when the holds exceed it). */
  available?: bigint;
  lowWaterMark?: bigint;
  /** available is below the low-water mark. */
  low: boolean;
  error?: string;
}

export interface InventoryReportDeps {
  chains: readonly ChainConfig[];
  store: Store;
  getClient(chainId: number): PublicClient;
  solver: Address;
}

export async function readInventoryReport(deps: InventoryReportDeps): Promise<InventoryLine[]> {
  const [held, owed] = await Promise.all([
    deps.store.solverInventory.held({ fillPurpose: FILL_PURPOSE }),
    deps.store.solverInventory.owed({ settleStep: settleStep.name }),
  ]);
  const lines = deps.chains.flatMap((chain) =>
    reported(chain).map(async (token): Promise<InventoryLine> => {
      const line = {
        chainId: chain.chainId,
        chainName: chain.name,
        token: { symbol: token.symbol, address: token.address, decimals: token.decimals },
        held: amountOf(held, chain.chainId, token.address),
        owed: amountOf(owed, chain.chainId, token.address),
        ...(token.lowWaterMark !== undefined && { lowWaterMark: token.lowWaterMark }),
      };
      try {
        const balance = await readBalance(deps.getClient(chain.chainId), token.address, [deps.solver]);
        const available = balance > line.held ? balance - line.held : 0n;
        const low = token.lowWaterMark !== undefined && available < token.lowWaterMark;
        return { ...line, balance, available, low };
      } catch (error) {
        return { ...line, low: false, error: (error as Error).message.split('\n')[0] ?? String(error) };
      }
    }),
  );
  return Promise.all(lines);
}

/** Bridgeable ERC-20s (what the solver fills) and any token with a low-water mark. */
function reported(chain: ChainConfig): TokenConfig[] {
  return chain.tokens.filter(
    (t) => t.address !== zeroAddress && (t.supportsBridging !== false || t.lowWaterMark !== undefined),
  );
}

function amountOf(amounts: TokenAmount[], chainId: number, token: string): bigint {
  const found = amounts.find((a) => a.chainId === chainId && a.tokenAddress === token.toLowerCase());
  return found?.amount ?? 0n;
}
