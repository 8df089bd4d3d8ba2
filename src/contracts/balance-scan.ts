/**
 * Many balances in one `eth_call`: the creation code of contracts/lens/BalanceScan.sol, run without a
 * recipient (never deployed), returns every holder's balance in every token. A chain answers a scan of H
 * holders and T tokens in ⌈H·T / SCAN_READS_PER_CALL⌉ calls instead of H·T, on any node (no Multicall3 needed).
 * Chain failures come out as viem's errors: callers map them (src/chains/map-chain-error.ts).
 */
import { type Address, decodeAbiParameters, encodeDeployData, type Hex, type PublicClient } from 'viem';
import { balanceScanAbi } from './abis.generated.ts';
import { loadArtifact } from './artifacts.ts';

/**
 * Balances one call reads at most: its answer (32 bytes each, plus the failure bits) must stay under the
 * 24,576 bytes a constructor may return (EIP-170); 512 is ~16.5 KB and, at ~5,000 gas a cold balanceOf plus
 * 200 gas a returned byte, ~6 M gas, under every node's eth_call gas cap.
 */
export const SCAN_READS_PER_CALL = 512;

const OUTPUT = [{ type: 'uint256[]' }, { type: 'uint256[]' }] as const;

/** Per holder, per token (in the order given): the balance, or undefined where the token's balanceOf failed. */
export type ScannedBalances = (bigint | undefined)[][];

export type BalanceScan = (
  client: PublicClient,
  holders: readonly Address[],
  tokens: readonly Address[],
) => Promise<ScannedBalances>;

export function createBalanceScan(): BalanceScan {
  const { bytecode } = loadArtifact('BalanceScan');
  return async (client, holders, tokens) => {
    if (holders.length === 0 || tokens.length === 0) return holders.map(() => []);
    const perCall = Math.max(1, Math.floor(SCAN_READS_PER_CALL / tokens.length));
    const chunks: Address[][] = [];
    for (let i = 0; i < holders.length; i += perCall) chunks.push(holders.slice(i, i + perCall));
    const answers = await Promise.all(chunks.map((chunk) => scanOnce(client, bytecode, chunk, tokens)));
    return answers.flat();
  };
}

async function scanOnce(
  client: PublicClient,
  bytecode: Hex,
  holders: readonly Address[],
  tokens: readonly Address[],
): Promise<ScannedBalances> {
  const data = encodeDeployData({ abi: balanceScanAbi, bytecode, args: [holders, tokens] });
  const { data: answer } = await client.call({ data });
  const [balances, failed] = decodeAbiParameters(OUTPUT, answer ?? '0x');
  return holders.map((_, h) =>
    tokens.map((_, t) => {
      const i = h * tokens.length + t;
      const bit = ((failed[Math.floor(i / 256)] ?? 0n) >> BigInt(i % 256)) & 1n;
      return bit === 1n ? undefined : balances[i];
    }),
  );
}
