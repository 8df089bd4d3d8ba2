import { type Address, erc20Abi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { erc4626Abi, uniswapV2RouterAbi } from '../../src/devnet/abis.ts';
import { DEVNET_CHAINS, FUNDING, usdc } from '../../src/devnet/constants.ts';
import { withGasMargin } from '../../src/devnet/send-and-wait.ts';
import { startTestDevnet, type TestDevnet, type TestDevnetChain } from '../harness/devnet.ts';

/** Seconds to warp a vault forward: long enough that a few-percent APY moves the share price visibly. */
const ONE_DAY_SECONDS = 86_400;

describe('the devnet', () => {
  let net: TestDevnet;
  beforeAll(async () => {
    net = await startTestDevnet();
  });
  afterAll(async () => {
    await net?.stop();
  });

  it('runs three chains, each answering on its rpcUrl with its stated chain id', async () => {
    expect(net.devnet.chains.map((c) => c.chainId)).toEqual([7_770_001, 7_770_002, 7_770_003]);
    for (const chain of net.devnet.chains) {
      const response = await fetch(chain.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      const { result } = (await response.json()) as { result: string };
      expect(Number(result)).toBe(chain.chainId);
    }
  });

  it('has the intent factory and the Uniswap factory with identical code at the same address on every chain', async () => {
    for (const name of ['intentFactory', 'uniswapV2Factory', 'uniswapV2Router'] as const) {
      const addresses = new Set(net.devnet.chains.map((c) => c.contracts[name]));
      expect(addresses.size, name).toBe(1);
      const codes = await Promise.all(
        net.chains.map((c) => c.publicClient.getCode({ address: c.entry.contracts[name]! })),
      );
      expect(codes[0]?.length ?? 0, name).toBeGreaterThan(2);
      expect(new Set(codes).size, name).toBe(1);
    }
  });

  it('lets the user swap USDC for WETH and for DAI through every chain router, exactly as getAmountsOut says', async () => {
    for (const chain of net.chains) {
      await swapAndCheck(chain, chain.entry.tokens.WETH!, usdc('3000'));
      await swapAndCheck(chain, chain.entry.tokens.DAI!, usdc('2500'));
    }
  });

  it('prices USDC/WETH near 3,000 USDC per ETH and USDC/DAI near 1:1', async () => {
    const chain = net.chains[0]!;
    const { USDC, WETH, DAI } = chain.entry.tokens;
    const router = chain.entry.contracts.uniswapV2Router!;
    const read = (amountIn: bigint, path: Address[]) =>
      chain.publicClient.readContract({
        address: router,
        abi: uniswapV2RouterAbi,
        functionName: 'getAmountsOut',
        args: [amountIn, path],
      });
    const [, usdcForOneEth] = await read(parseEther('1'), [WETH!, USDC!]);
    expect(usdcForOneEth).toBeGreaterThan(usdc('2980'));
    expect(usdcForOneEth).toBeLessThan(usdc('3000'));
    const [, daiFor1000Usdc] = await read(usdc('1000'), [USDC!, DAI!]);
    expect(daiFor1000Usdc).toBeGreaterThan(parseEther('996'));
    expect(daiFor1000Usdc).toBeLessThan(parseEther('1000'));
  });

  it('funds the solver with every token and the user with USDC, DAI and ETH on every chain', async () => {
    const { solver, user, relayer, attester } = net.devnet.accounts;
    for (const chain of net.chains) {
      const { USDC, DAI, WETH } = chain.entry.tokens;
      const balance = (token: Address, holder: Address) =>
        chain.publicClient.readContract({
          address: token,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [holder],
        });
      expect(await balance(USDC!, solver!.address)).toBeGreaterThanOrEqual(FUNDING.solver.usdc);
      expect(await balance(DAI!, solver!.address)).toBeGreaterThanOrEqual(FUNDING.solver.dai);
      expect(await balance(WETH!, solver!.address)).toBeGreaterThanOrEqual(FUNDING.solver.weth);
      expect(await chain.publicClient.getBalance({ address: solver!.address })).toBeGreaterThan(0n);
      expect(await balance(USDC!, user.address)).toBeGreaterThan(0n);
      expect(await balance(DAI!, user.address)).toBeGreaterThan(0n);
      expect(await chain.publicClient.getBalance({ address: user.address })).toBeGreaterThan(0n);
      expect(await chain.publicClient.getBalance({ address: relayer!.address })).toBeGreaterThan(0n);
      expect(await chain.publicClient.getBalance({ address: attester!.address })).toBeGreaterThan(0n);
    }
  });

  it('has a USDC vault and a DAI vault on different chains whose share price grows over time', async () => {
    const chainsWith = (name: string) => net.chains.filter((c) => c.entry.contracts[name]);
    const usdcChains = chainsWith('usdcVault').map((c) => c.entry.chainId);
    const daiChains = chainsWith('daiVault').map((c) => c.entry.chainId);
    expect(usdcChains.length).toBeGreaterThan(0);
    expect(daiChains.some((id) => !usdcChains.includes(id))).toBe(true);

    const chain = chainsWith('usdcVault')[0]!;
    const vault = chain.entry.contracts.usdcVault!;
    const oneShare = 10n ** 6n;
    const assetsPerShare = () =>
      chain.publicClient.readContract({
        address: vault,
        abi: erc4626Abi,
        functionName: 'convertToAssets',
        args: [oneShare],
      });
    const before = await assetsPerShare();
    await chain.testClient.increaseTime({ seconds: ONE_DAY_SECONDS });
    await chain.testClient.mine({ blocks: 1 });
    expect(await assetsPerShare()).toBeGreaterThan(before);
  });

  it('gives the server one ChainConfig per chain with tokens and contracts', () => {
    expect(net.chainConfigs.map((c) => c.chainId)).toEqual(DEVNET_CHAINS.map((c) => c.chainId));
    const alpha = net.chainConfigs[0]!;
    expect(alpha.rpcUrls).toEqual([net.devnet.chains[0]!.rpcUrl]);
    expect(alpha.tokens.find((t) => t.symbol === 'USDC')).toMatchObject({
      decimals: 6,
      isUsdReference: true,
    });
    expect(alpha.tokens.find((t) => t.symbol === 'ETH')?.address).toBe(
      '0x0000000000000000000000000000000000000000',
    );
    expect(alpha.contracts.intentFactory).toBe(net.devnet.chains[0]!.contracts.intentFactory);
  });
});

async function swapAndCheck(chain: TestDevnetChain, tokenOut: Address, amountIn: bigint): Promise<void> {
  const user = chain.walletFor('user');
  const { USDC } = chain.entry.tokens;
  const router = chain.entry.contracts.uniswapV2Router!;
  const balance = (token: Address) =>
    chain.publicClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [user.account.address],
    });
  const path = [USDC!, tokenOut];
  const [, expectedOut] = await chain.publicClient.readContract({
    address: router,
    abi: uniswapV2RouterAbi,
    functionName: 'getAmountsOut',
    args: [amountIn, path],
  });
  const usdcBefore = await balance(USDC!);
  const outBefore = await balance(tokenOut);

  const approve = await user.writeContract({
    address: USDC!,
    abi: erc20Abi,
    functionName: 'approve',
    args: [router, amountIn],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash: approve });
  const { timestamp } = await chain.publicClient.getBlock();
  const request = {
    address: router,
    abi: uniswapV2RouterAbi,
    functionName: 'swapExactTokensForTokens',
    args: [amountIn, expectedOut!, path, user.account.address, timestamp + 600n],
    account: user.account,
  } as const;
  // Like a wallet, add a margin: the pair's price accumulators cost more once the clock has ticked
  // past the estimate's block (see docs/devnet.md, "Gas estimates").
  const gas = withGasMargin(await chain.publicClient.estimateContractGas(request));
  const swap = await user.writeContract({ ...request, gas });
  expect((await chain.publicClient.waitForTransactionReceipt({ hash: swap })).status).toBe('success');

  expect(usdcBefore - (await balance(USDC!))).toBe(amountIn);
  expect((await balance(tokenOut)) - outBefore).toBe(expectedOut);
}
