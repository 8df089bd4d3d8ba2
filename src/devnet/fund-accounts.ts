/**
 * Funds the roles on one chain: ETH for the relayer, attester and fee collector; an inventory of every
 * token for the solver (USDC, DAI, WETH, ETH); USDC, DAI and ETH for the demo user. Every balance is
 * topped up to its target (never beyond), so a setup resumed after a crash does not fund twice. ETH is
 * set with anvil_setBalance, tokens are minted, WETH is wrapped by the deployer and handed over.
 */
import { type Address, erc20Abi } from 'viem';
import { weth9Abi } from './abis.ts';
import type { DevnetAccounts } from './accounts.ts';
import type { DevnetChainClients } from './chain-clients.ts';
import { FUNDING } from './constants.ts';
import { mint } from './mint.ts';
import { sendAndWait } from './send-and-wait.ts';

export interface FundAccountsInput {
  accounts: DevnetAccounts;
  usdc: Address;
  dai: Address;
  weth: Address;
}

export async function fundAccounts(clients: DevnetChainClients, input: FundAccountsInput): Promise<void> {
  const { relayer, attester, feeCollector, solver, user } = input.accounts;
  await topUpEth(clients, relayer.address, FUNDING.relayerEth);
  await topUpEth(clients, attester.address, FUNDING.attesterEth);
  await topUpEth(clients, feeCollector.address, FUNDING.feeCollectorEth);
  await topUpEth(clients, solver.address, FUNDING.solver.eth);
  await topUpEth(clients, user.address, FUNDING.user.eth);

  await topUpToken(clients, input.usdc, solver.address, FUNDING.solver.usdc);
  await topUpToken(clients, input.dai, solver.address, FUNDING.solver.dai);
  await topUpWeth(clients, input.weth, solver.address, FUNDING.solver.weth);
  await topUpToken(clients, input.usdc, user.address, FUNDING.user.usdc);
  await topUpToken(clients, input.dai, user.address, FUNDING.user.dai);
}

async function topUpEth(clients: DevnetChainClients, address: Address, target: bigint): Promise<void> {
  const balance = await clients.publicClient.getBalance({ address });
  if (balance < target) await clients.testClient.setBalance({ address, value: target });
}

async function topUpToken(clients: DevnetChainClients, token: Address, holder: Address, target: bigint) {
  const missing = target - (await tokenBalance(clients, token, holder));
  if (missing > 0n) await mint(clients, token, holder, missing);
}

async function topUpWeth(clients: DevnetChainClients, weth: Address, holder: Address, target: bigint) {
  const missing = target - (await tokenBalance(clients, weth, holder));
  if (missing <= 0n) return;
  await sendAndWait(clients, { address: weth, abi: weth9Abi, functionName: 'deposit', value: missing });
  await sendAndWait(clients, {
    address: weth,
    abi: erc20Abi,
    functionName: 'transfer',
    args: [holder, missing],
  });
}

function tokenBalance(clients: DevnetChainClients, token: Address, holder: Address): Promise<bigint> {
  return clients.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
}
