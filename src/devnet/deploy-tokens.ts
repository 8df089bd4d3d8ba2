/** Deploys the devnet's stable tokens (DevUSDC: 6 decimals, permit + EIP-3009; DevDAI: 18 decimals) by CREATE2. */
import type { Address } from 'viem';
import { deployDevToken } from '../contracts/deploy-dev-tokens.ts';
import type { DevnetChainClients } from './chain-clients.ts';

export interface TokenDeployment {
  USDC: Address;
  DAI: Address;
}

export async function deployTokens(clients: DevnetChainClients): Promise<TokenDeployment> {
  const { publicClient, walletClient } = clients;
  const USDC = await deployDevToken({ publicClient, walletClient, name: 'DevUSDC' });
  const DAI = await deployDevToken({ publicClient, walletClient, name: 'DevDAI' });
  return { USDC, DAI };
}
