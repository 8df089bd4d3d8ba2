/**
 * YieldCreateEnterAction without an amount (`args` is optional in the spec): the action deposits everything
 * the wallet holds of the market's token, on both prefixes; with nothing to deposit the answer is
 * InvalidArgument naming `args.amount`. Addresses (wallet, receiver) may come in any letter case.
 */
import { type Address, decodeFunctionData, erc20Abi, getAddress, type Hex, parseAbi, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';
import { assetsFor, type Json, rpc, sharesOf, startYieldServer, type YieldServer } from './support.ts';

const depositAbi = parseAbi(['function deposit(uint256,address)']);
const upper = (address: string) => `0x${address.slice(2).toUpperCase()}`;
const fresh = (): Address => privateKeyToAddress(generatePrivateKey());

let net: TestDevnet;
let yieldServer: YieldServer;
let gamma: TestDevnetChain;
let user: Address;
let vault: Address;
let usdc: Address;
let marketId: string;

beforeAll(async () => {
  net = await startTestDevnet();
  yieldServer = await startYieldServer(net);
  gamma = net.chains[2]!;
  user = net.devnet.accounts.user.address;
  vault = gamma.entry.contracts.usdcVault as Address;
  usdc = gamma.entry.tokens.USDC as Address;
  marketId = `erc4626-${gamma.entry.chainId}-${vault.toLowerCase()}`;
}, 120_000);
afterAll(async () => {
  await yieldServer?.stop();
  await net?.stop();
});

const usdcOf = (holder: Address) =>
  gamma.publicClient.readContract({
    address: usdc,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });

async function enter(body: Json, prefix: 'Trails' | 'Service') {
  return rpc(yieldServer, 'YieldCreateEnterAction', { earnMarketId: marketId, ...body }, prefix);
}

describe('YieldCreateEnterAction without an amount', () => {
  it('deposits all a wallet holds, shares to args.receiverAddress; addresses in any case', async () => {
    const wallet = fresh();
    const receiver = fresh();
    const give = await gamma.walletFor('user').writeContract({
      address: usdc,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [wallet, parseUnits('40', 6)],
    });
    await gamma.publicClient.waitForTransactionReceipt({ hash: give });
    for (const prefix of ['Trails', 'Service'] as const) {
      const { status, json } = await enter(
        { userWalletAddress: upper(wallet), args: { receiverAddress: upper(receiver) } },
        prefix,
      );
      expect({ prefix, status }, JSON.stringify(json)).toEqual({ prefix, status: 200 });
      expect(json.payload).toMatchObject({ amountRaw: '40000000', amount: '40', receiverAddress: receiver });
      const [approve, deposit] = json.payload.transactions as Json[];
      expect([approve!.from, deposit!.from]).toEqual([wallet, wallet]);
      expect(decodeFunctionData({ abi: depositAbi, data: deposit!.data }).args).toEqual([
        40_000_000n,
        receiver,
      ]);
      expect(getAddress(receiver)).toBe(receiver);
    }
  });

  it('without args at all, on both prefixes, and the transactions move the whole balance into the vault', async () => {
    const balance = await usdcOf(user);
    expect(balance).toBeGreaterThan(0n);
    let txs: Json[] = [];
    for (const prefix of ['Trails', 'Service'] as const) {
      const { status, json } = await enter({ userWalletAddress: user }, prefix);
      expect({ prefix, status }, JSON.stringify(json)).toEqual({ prefix, status: 200 });
      expect(json.payload.amountRaw).toBe(balance.toString());
      txs = json.payload.transactions as Json[];
      expect(decodeFunctionData({ abi: depositAbi, data: txs[1]!.data }).args).toEqual([balance, user]);
      expect(json.action.transactions.map((t: Json) => t.unsignedTransaction)).toEqual(txs);
    }

    const sharesBefore = await sharesOf(gamma, vault, user);
    const wallet = gamma.walletFor('user');
    for (const tx of txs) {
      const hash = await wallet.sendTransaction({ to: tx.to, data: tx.data as Hex, value: BigInt(tx.value) });
      expect((await gamma.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    }
    expect(await usdcOf(user)).toBe(0n);
    const worth = await assetsFor(gamma, vault, (await sharesOf(gamma, vault, user)) - sharesBefore);
    // ERC-4626 rounds in the vault's favour: the shares are worth the deposit, less at most a base unit.
    expect(balance - worth).toBeLessThanOrEqual(1n);
  });

  it('names args.amount when the wallet holds nothing to deposit', async () => {
    const empty = fresh();
    for (const prefix of ['Trails', 'Service'] as const) {
      for (const args of [undefined, {}, { receiverAddress: user }]) {
        const { status, json } = await enter({ userWalletAddress: empty, args }, prefix);
        const label = `${prefix} ${JSON.stringify(args)}`;
        expect({ status, code: json.code, cause: json.cause }, label).toEqual({
          status: 400,
          code: 2000,
          cause: 'field=args.amount',
        });
        expect(json.msg, label).toMatch(/^args\.amount: is required: .* holds no USDC/);
      }
    }
  });
});
