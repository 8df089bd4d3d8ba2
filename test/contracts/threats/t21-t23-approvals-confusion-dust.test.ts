/**
 * Threats #21–#23 of contracts-brief §3 on one anvil chain with Uniswap V2 deployed from the npm artifacts
 * as shipped: #21 no allowance outlives execute (router, settler, vault); #22 one intent's data cannot drive
 * another intent's account; #23 dust arriving after completion can be refunded by anyone.
 */
import {
  type Abi,
  type Address,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  maxUint256,
  parseAbi,
  toHex,
  zeroAddress,
} from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { accruingVaultAbi } from '../../../src/contracts/abis.generated.ts';
import {
  encodeDeploy,
  encodeDeployIfNeededAndExecute,
  encodeExecute,
  encodeOpen,
  encodeRefund,
} from '../../../src/contracts/calldata.ts';
import { computeOrderId } from '../../../src/contracts/order-id.ts';
import {
  AccountState,
  FillKind,
  type Intent,
  type IntentCall,
  IntentMode,
  OPEN_INPUT_AMOUNT_OFFSET,
  type OrderData,
  OrderStatus,
} from '../../../src/contracts/types.ts';
import { loadUniswapArtifacts } from '../../../src/devnet/uniswap-artifacts.ts';
import type { TestChain } from '../../harness/chain.ts';
import { accountAddress, DEST_MIN_GAS, INTENT_WINDOW_SECONDS, transferCall } from '../route.ts';
import { useIsolatedTestChains } from '../use-test-chains.ts';
import { accountStateOf, userIntent } from './support/fixture.ts';
import { allowanceOf, expectRevertOnChain, orderStatusOf, transferToken, USDC } from './t13-t23-support.ts';

/** One DAI in base units (18 decimals). */
const DAI = 10n ** 18n;
const AMOUNT = 100n * USDC;
/** Pool depth on each side: 1,000,000 USDC against 1,000,000 DAI (a 1:1 stable pool). */
const POOL_USDC = 1_000_000n * USDC;
const POOL_DAI = 1_000_000n * DAI;
/** Byte offsets in `swapExactTokensForTokens(amountIn, amountOutMin, path, to, deadline)` calldata. */
const SWAP_AMOUNT_IN_OFFSET = 4;
const SWAP_TO_OFFSET = 4 + 3 * 32;
/** Byte offset of `depositor` in `open(OrderData)` calldata (the first struct word). */
const OPEN_DEPOSITOR_OFFSET = 4;
/** Byte offset of `spender` in `approve(spender, amount)` calldata. */
const APPROVE_SPENDER_OFFSET = 4;
/** Byte offset of `assets` in ERC-4626 `deposit(assets, receiver)` calldata. */
const VAULT_ASSETS_OFFSET = 4;

/** The Router02 functions these tests call (the deployed bytecode is the npm artifact's). */
const routerAbi = parseAbi([
  'function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)',
  'function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[])',
  'function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[])',
]);

describe('threats #21–#23', () => {
  let chain: TestChain;
  let router: Address;
  let vault: Address;
  useIsolatedTestChains([7_771_321], async ([started]) => {
    chain = started;
    router = await deployUniswapV2(chain);
    vault = getAddress(await chain.deploy('AccruingVault', [chain.tokens.usdc, 'Vault USDC', 'vUSDC', 0n]));
    await seedStablePool(chain, router);
  });

  const usdc = (holder: Address) => chain.balanceOf(chain.tokens.usdc, holder);

  /** A USDC intent of the user for AMOUNT, run by the relayer, unless `p` says otherwise. */
  async function baseIntent(p: Partial<Intent> & Pick<Intent, 'calls'>): Promise<Intent> {
    return userIntent(chain, {
      deadline: (await chain.now()) + INTENT_WINDOW_SECONDS,
      depositToken: chain.tokens.usdc,
      depositAmount: AMOUNT,
      ...p,
    });
  }

  /** The user deposits AMOUNT USDC to `account` with a plain transfer. */
  async function deposit(account: Address, amount = AMOUNT): Promise<void> {
    await chain.mint(chain.tokens.usdc, chain.accounts.user.address, amount);
    await transferToken(chain, 'user', chain.tokens.usdc, account, amount);
  }

  const approveCall = (token: Address, spender: Address, amount: bigint): IntentCall => ({
    target: token,
    value: 0n,
    data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }),
    fills: [],
  });

  describe('#21 leftover approvals after execute', () => {
    // The intents approve the maximum, more than any call spends, so an allowance that were not reset
    // afterwards would show up as non-zero.
    it('swap-in-origin through Uniswap V2, then lock in the settler: router and settler allowances end at 0', async () => {
      const { usdc: usdcToken, dai } = chain.tokens;
      const settler = chain.contracts.originSettler;
      const deadline = (await chain.now()) + INTENT_WINDOW_SECONDS;
      const path = [usdcToken, dai];
      const [, quotedOut] = await chain.publicClient.readContract({
        address: router,
        abi: routerAbi,
        functionName: 'getAmountsOut',
        args: [AMOUNT, path],
      });
      const order: OrderData = {
        depositor: zeroAddress,
        refundRecipient: chain.accounts.user.address,
        inputToken: dai,
        inputAmount: 0n,
        destChainId: 7_771_999n,
        destSettler: chain.contracts.destinationSettler,
        outputToken: usdcToken,
        outputAmount: 99n * USDC,
        recipient: privateKeyToAddress(generatePrivateKey()),
        fillDeadline: deadline,
        nonce: keccak256(toHex('t21-swap-order')),
      };
      const intent = await baseIntent({
        deadline,
        calls: [
          approveCall(usdcToken, router, maxUint256),
          {
            target: router,
            value: 0n,
            data: encodeFunctionData({
              abi: routerAbi,
              functionName: 'swapExactTokensForTokens',
              args: [0n, quotedOut!, path, zeroAddress, deadline],
            }),
            fills: [
              { kind: FillKind.OwnBalance, token: usdcToken, offset: SWAP_AMOUNT_IN_OFFSET },
              { kind: FillKind.OwnAddress, token: zeroAddress, offset: SWAP_TO_OFFSET },
            ],
          },
          approveCall(dai, settler, maxUint256),
          {
            target: settler,
            value: 0n,
            data: encodeOpen(order),
            fills: [
              { kind: FillKind.OwnAddress, token: zeroAddress, offset: OPEN_DEPOSITOR_OFFSET },
              { kind: FillKind.OwnBalance, token: dai, offset: OPEN_INPUT_AMOUNT_OFFSET },
            ],
          },
        ],
        sweepTokens: [dai],
      });
      const { address: account } = accountAddress(chain, intent);
      await deposit(account);

      await chain.send('relayer', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndExecute(intent),
      });

      expect(await allowanceOf(chain, usdcToken, account, router)).toBe(0n);
      expect(await allowanceOf(chain, dai, account, settler)).toBe(0n);
      // The swap really ran and its whole output is locked.
      const opened = { ...order, depositor: account, inputAmount: quotedOut! };
      const orderId = computeOrderId(opened, BigInt(chain.chainId), settler);
      expect(await orderStatusOf(chain, orderId)).toBe(OrderStatus.Open);
      expect(await chain.balanceOf(dai, settler)).toBe(quotedOut);
      expect(await usdc(account)).toBe(0n);
      expect(await chain.balanceOf(dai, account)).toBe(0n);
    });

    it('destination vault deposit: the vault allowance ends at 0 and the recipient holds the shares', async () => {
      const recipient = privateKeyToAddress(generatePrivateKey());
      const intent = await baseIntent({
        mode: IntentMode.Destination,
        executor: zeroAddress,
        minGas: DEST_MIN_GAS,
        calls: [
          approveCall(chain.tokens.usdc, vault, maxUint256),
          {
            target: vault,
            value: 0n,
            data: encodeFunctionData({
              abi: accruingVaultAbi,
              functionName: 'deposit',
              args: [0n, recipient],
            }),
            fills: [{ kind: FillKind.OwnBalance, token: chain.tokens.usdc, offset: VAULT_ASSETS_OFFSET }],
          },
        ],
      });
      const { address: account } = accountAddress(chain, intent);
      // Stands in for the solver's fill of the destination account.
      await chain.mint(chain.tokens.usdc, account, AMOUNT);

      await chain.send('stranger', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndExecute(intent),
      });

      expect(await allowanceOf(chain, chain.tokens.usdc, account, vault)).toBe(0n);
      expect(await usdc(vault)).toBe(AMOUNT);
      const shares = await chain.balanceOf(vault, recipient);
      expect(shares).toBeGreaterThan(0n);
      const assets = await chain.publicClient.readContract({
        address: vault,
        abi: accruingVaultAbi,
        functionName: 'convertToAssets',
        args: [shares],
      });
      expect(assets).toBe(AMOUNT);
    });

    it('an approve whose spender word is filled at run time is reset for the spender it actually approved', async () => {
      // The committed spender word is a placeholder; the own-address fill makes it approve(account, max).
      const placeholder: Address = '0x000000000000000000000000000000000000dEaD';
      const recipient = privateKeyToAddress(generatePrivateKey());
      const intent = await baseIntent({
        calls: [
          {
            ...approveCall(chain.tokens.usdc, placeholder, maxUint256),
            fills: [{ kind: FillKind.OwnAddress, token: zeroAddress, offset: APPROVE_SPENDER_OFFSET }],
          },
          transferCall(chain.tokens.usdc, recipient, AMOUNT),
        ],
      });
      const { address: account } = accountAddress(chain, intent);
      await deposit(account);

      await chain.send('relayer', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndExecute(intent),
      });

      expect(await usdc(recipient)).toBe(AMOUNT);
      expect(await allowanceOf(chain, chain.tokens.usdc, account, account)).toBe(0n);
      expect(await allowanceOf(chain, chain.tokens.usdc, account, placeholder)).toBe(0n);
    });
  });

  describe('#22 cross-intent confusion', () => {
    it("O1's data against O2's account reverts HashMismatch(hash(O2), hash(O1)); O2's deposit stays put", async () => {
      const recipient1 = privateKeyToAddress(generatePrivateKey());
      const recipient2 = privateKeyToAddress(generatePrivateKey());
      const o1 = await baseIntent({ calls: [transferCall(chain.tokens.usdc, recipient1, AMOUNT)] });
      const o2 = await baseIntent({ calls: [transferCall(chain.tokens.usdc, recipient2, AMOUNT)] });
      const a1 = accountAddress(chain, o1);
      const a2 = accountAddress(chain, o2);
      await chain.send('stranger', { to: chain.contracts.intentFactory, data: encodeDeploy(o1) });
      await chain.send('stranger', { to: chain.contracts.intentFactory, data: encodeDeploy(o2) });
      await deposit(a2.address);

      const executeArgs = await expectRevertOnChain(
        chain,
        'relayer',
        { to: a2.address, data: encodeExecute(o1) },
        'HashMismatch',
      );
      expect(executeArgs).toEqual([a2.hash, a1.hash]);
      expect(await usdc(a2.address)).toBe(AMOUNT);
      expect(await usdc(recipient1)).toBe(0n);
      expect(await accountStateOf(chain, a2.address)).toBe(AccountState.None);

      // An attacker's own intent (refunds to the attacker) cannot drive a refund of O2's account either.
      const attacker = chain.accounts.stranger.address;
      const mine = await baseIntent({
        owner: attacker,
        refundRecipient: attacker,
        executor: zeroAddress,
        calls: [transferCall(chain.tokens.usdc, attacker, AMOUNT)],
      });
      const refundArgs = await expectRevertOnChain(
        chain,
        'stranger',
        { to: a2.address, data: encodeRefund(mine, [chain.tokens.usdc], true) },
        'HashMismatch',
      );
      expect(refundArgs).toEqual([a2.hash, accountAddress(chain, mine).hash]);
      expect(await usdc(attacker)).toBe(0n);
      expect(await usdc(a2.address)).toBe(AMOUNT);

      // O2 itself still executes and pays its own recipient.
      await chain.send('relayer', { to: a2.address, data: encodeExecute(o2) });
      expect(await usdc(recipient2)).toBe(AMOUNT);
      expect(await usdc(recipient1)).toBe(0n);
    });
  });

  describe('#23 dust after completion', () => {
    it('1 wei of a token and of native after execute: a stranger refunds both to the owner, the relayer pays nothing', async () => {
      const { user, relayer } = chain.accounts;
      const intent = await baseIntent({
        calls: [transferCall(chain.tokens.usdc, privateKeyToAddress(generatePrivateKey()), AMOUNT)],
      });
      const { address: account } = accountAddress(chain, intent);
      await deposit(account);
      await chain.send('relayer', {
        to: chain.contracts.intentFactory,
        data: encodeDeployIfNeededAndExecute(intent),
      });
      expect(await accountStateOf(chain, account)).toBe(AccountState.Executed);

      // Dust arrives after completion (a late top-up, a spammer).
      await chain.mint(chain.tokens.usdc, account, 1n);
      await chain.send('deployer', { to: account, data: '0x', value: 1n });
      const userUsdc = await usdc(user.address);
      const userNative = await chain.balanceOf(zeroAddress, user.address);
      const relayerNative = await chain.balanceOf(zeroAddress, relayer.address);

      await chain.send('stranger', { to: account, data: encodeRefund(intent, [chain.tokens.usdc], true) });
      expect(await usdc(user.address)).toBe(userUsdc + 1n);
      expect(await chain.balanceOf(zeroAddress, user.address)).toBe(userNative + 1n);
      expect(await usdc(account)).toBe(0n);
      expect(await chain.balanceOf(zeroAddress, account)).toBe(0n);
      expect(await chain.balanceOf(zeroAddress, relayer.address)).toBe(relayerNative);
    });
  });
});

/** Deploys WETH9, UniswapV2Factory and UniswapV2Router02 from the npm artifacts as shipped; returns the router. */
async function deployUniswapV2(chain: TestChain): Promise<Address> {
  const artifacts = loadUniswapArtifacts();
  const deploy = async (artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) => {
    const hash = await chain.wallets.deployer.deployContract({
      abi: artifact.abi,
      bytecode: artifact.bytecode,
      args,
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    if (!receipt.contractAddress) throw new Error('Uniswap V2 deployment failed');
    return getAddress(receipt.contractAddress);
  };
  const weth = await deploy(artifacts.weth9, []);
  const factory = await deploy(artifacts.factory, [chain.accounts.deployer.address]);
  return deploy(artifacts.router02, [factory, weth]);
}

/** Seeds a 1:1 USDC/DAI pool through the router (the deployer provides the liquidity). */
async function seedStablePool(chain: TestChain, router: Address): Promise<void> {
  const { usdc, dai } = chain.tokens;
  const deployer = chain.accounts.deployer.address;
  await chain.mint(usdc, deployer, POOL_USDC);
  await chain.mint(dai, deployer, POOL_DAI);
  for (const [token, amount] of [
    [usdc, POOL_USDC],
    [dai, POOL_DAI],
  ] as const) {
    await chain.send('deployer', {
      to: token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, amount] }),
    });
  }
  await chain.send('deployer', {
    to: router,
    data: encodeFunctionData({
      abi: routerAbi,
      functionName: 'addLiquidity',
      args: [usdc, dai, POOL_USDC, POOL_DAI, POOL_USDC, POOL_DAI, deployer, (await chain.now()) + 600n],
    }),
  });
}
