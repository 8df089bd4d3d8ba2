/** Deploys WETH9, UniswapV2Factory and UniswapV2Router02 (npm artifacts, as shipped) by CREATE2. */
import { type Abi, type Address, encodeDeployData } from 'viem';
import { deployCreate2, switchyardSalt } from '../contracts/create2.ts';
import type { DevnetChainClients } from './chain-clients.ts';
import type { UniswapArtifact, UniswapArtifacts } from './uniswap-artifacts.ts';

export interface UniswapDeployment {
  weth: Address;
  uniswapV2Factory: Address;
  uniswapV2Router: Address;
}

export async function deployUniswap(
  clients: DevnetChainClients,
  artifacts: UniswapArtifacts,
  /** Receives the factory's `feeToSetter` right (protocol fee switch; unused on the devnet). */
  feeToSetter: Address,
): Promise<UniswapDeployment> {
  const deploy = async (name: string, artifact: UniswapArtifact, args: readonly unknown[] = []) => {
    const initCode = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args });
    const { publicClient, walletClient } = clients;
    return (await deployCreate2({ publicClient, walletClient, salt: switchyardSalt(name), initCode }))
      .address;
  };
  const weth = await deploy('WETH9', artifacts.weth9);
  const uniswapV2Factory = await deploy('UniswapV2Factory', artifacts.factory, [feeToSetter]);
  const uniswapV2Router = await deploy('UniswapV2Router02', artifacts.router02, [uniswapV2Factory, weth]);
  return { weth, uniswapV2Factory, uniswapV2Router };
}
