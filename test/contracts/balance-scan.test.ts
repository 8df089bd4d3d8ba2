/**
 * BalanceScan (contracts/lens/BalanceScan.sol, read by src/contracts/balance-scan.ts) on anvil: every holder's
 * native and token balances in as many eth_calls as SCAN_READS_PER_CALL allows, equal to one read each, and a
 * token that answers no balanceOf (a contract without it, an address without code) reported as such.
 */
import { type Address, createPublicClient, http, parseEther, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { createBalanceScan, SCAN_READS_PER_CALL } from '../../src/contracts/balance-scan.ts';
import type { TestChain } from '../harness/chain.ts';
import { useTestChains } from './use-test-chains.ts';

/** Enough holders that five tokens each take two calls. */
const HOLDERS = 130;

describe('BalanceScan', () => {
  let chain: TestChain;
  useTestChains([7_770_481], ([started]) => {
    chain = started;
  });

  it('reads every holder in every token in ⌈reads / SCAN_READS_PER_CALL⌉ calls, each equal to its own read', async () => {
    const holders = Array.from({ length: HOLDERS }, () => privateKeyToAddress(generatePrivateKey()));
    for (const [i, holder] of holders.entries()) {
      if (i % 3 === 0) await chain.mint(chain.tokens.usdc, holder, BigInt(i + 1) * 1_000_000n);
      if (i % 7 === 0) await chain.mint(chain.tokens.dai, holder, parseEther(String(i + 1)));
    }
    await chain.send('user', { to: holders[5]!, data: '0x', value: parseEther('0.5') });
    const noBalanceOf = chain.contracts.intentFactory;
    const noCode = privateKeyToAddress(generatePrivateKey());
    const tokens: Address[] = [zeroAddress, chain.tokens.usdc, chain.tokens.dai, noBalanceOf, noCode];

    let calls = 0;
    const client = createPublicClient({
      transport: http(chain.rpcUrl, {
        onFetchRequest: () => {
          calls++;
        },
      }),
    });
    const scanned = await createBalanceScan()(client as never, holders, tokens);

    expect(calls).toBe(Math.ceil((HOLDERS * tokens.length) / SCAN_READS_PER_CALL));
    expect(calls).toBeGreaterThan(1);
    for (const [h, holder] of holders.entries()) {
      const expected = [
        await chain.balanceOf(zeroAddress, holder),
        await chain.balanceOf(chain.tokens.usdc, holder),
        await chain.balanceOf(chain.tokens.dai, holder),
        undefined,
        undefined,
      ];
      expect(scanned[h], `holder ${h}`).toEqual(expected);
    }
    expect(scanned[5]![0]).toBe(parseEther('0.5'));
    expect(scanned[3]![1]).toBe(4_000_000n);
  }, 120_000);
});
