/**
 * Deploys Uniswap V3 from the npm artifacts as shipped, by CREATE2 (same addresses on every chain):
 * UniswapV3Factory, NonfungiblePositionManager, QuoterV2, SwapRouter02 (which also routes through the V2
 * pairs) and TickLens. Then enables the 0.01 % fee tier the way the public factories got it: the factory's
 * owner calls `enableFeeAmount(100, 1)`.
 *
 * The factory makes its deployer its owner, and through CREATE2 that is the deployer proxy; the devnet
 * hands ownership to the devnet deployer account (anvil impersonates the proxy for one `setOwner`), so the
 * tier is enabled by an owner call as on a public chain.
 *
 * The position manager's token descriptor (only `tokenURI`, the NFT's picture, calls it) is the zero
 * address: nothing on the devnet renders position NFTs, and the real descriptor needs a linked library and
 * two more large deployments on every devnet start.
 */
import { type Abi, type Address, encodeDeployData, zeroAddress } from 'viem';
import { CREATE2_DEPLOYER, deployCreate2, switchyardSalt } from '../contracts/create2.ts';
import { uniswapV3FactoryAbi } from './abis.ts';
import type { DevnetChainClients } from './chain-clients.ts';
import { STABLE_FEE_TIER } from './constants.ts';
import { sendAndWait } from './send-and-wait.ts';
import type { UniswapArtifact, UniswapArtifacts } from './uniswap-artifacts.ts';

export interface UniswapV3Deployment {
  uniswapV3Factory: Address;
  uniswapV3PositionManager: Address;
  uniswapV3QuoterV2: Address;
  uniswapV3TickLens: Address;
  /** SwapRouter02: V3 pools and the V2 pairs behind one router. */
  uniswapSwapRouter02: Address;
}

/** Enough native currency for the proxy's one `setOwner` transaction (devnet gas is cheap). */
const OWNER_HANDOVER_GAS_MONEY = 10n ** 17n;

export async function deployUniswapV3(
  clients: DevnetChainClients,
  artifacts: UniswapArtifacts,
  v2: { weth: Address; uniswapV2Factory: Address },
): Promise<UniswapV3Deployment> {
  const deploy = async (name: string, artifact: UniswapArtifact, args: readonly unknown[] = []) => {
    const initCode = encodeDeployData({ abi: artifact.abi as Abi, bytecode: artifact.bytecode, args });
    const { publicClient, walletClient } = clients;
    return (await deployCreate2({ publicClient, walletClient, salt: switchyardSalt(name), initCode }))
      .address;
  };
  const uniswapV3Factory = await deploy('UniswapV3Factory', artifacts.v3Factory);
  await enableStableTier(clients, uniswapV3Factory);
  const uniswapV3PositionManager = await deploy('NonfungiblePositionManager', artifacts.positionManager, [
    uniswapV3Factory,
    v2.weth,
    zeroAddress,
  ]);
  const uniswapV3QuoterV2 = await deploy('QuoterV2', artifacts.quoterV2, [uniswapV3Factory, v2.weth]);
  const uniswapV3TickLens = await deploy('TickLens', artifacts.tickLens);
  const uniswapSwapRouter02 = await deploy('SwapRouter02', artifacts.swapRouter02, [
    v2.uniswapV2Factory,
    uniswapV3Factory,
    uniswapV3PositionManager,
    v2.weth,
  ]);
  return {
    uniswapV3Factory,
    uniswapV3PositionManager,
    uniswapV3QuoterV2,
    uniswapV3TickLens,
    uniswapSwapRouter02,
  };
}

/** The factory's owner enables the 0.01 % tier (tick spacing 1); idempotent. */
async function enableStableTier(clients: DevnetChainClients, factory: Address): Promise<void> {
  const { publicClient, testClient, walletClient } = clients;
  const read = (functionName: 'owner') =>
    publicClient.readContract({ address: factory, abi: uniswapV3FactoryAbi, functionName });
  const spacing = await publicClient.readContract({
    address: factory,
    abi: uniswapV3FactoryAbi,
    functionName: 'feeAmountTickSpacing',
    args: [STABLE_FEE_TIER.fee],
  });
  if (spacing !== 0) return;
  const deployer = walletClient.account.address;
  if ((await read('owner')).toLowerCase() === CREATE2_DEPLOYER.toLowerCase()) {
    await testClient.impersonateAccount({ address: CREATE2_DEPLOYER });
    await testClient.setBalance({ address: CREATE2_DEPLOYER, value: OWNER_HANDOVER_GAS_MONEY });
    try {
      const hash = await walletClient.writeContract({
        account: CREATE2_DEPLOYER,
        address: factory,
        abi: uniswapV3FactoryAbi,
        functionName: 'setOwner',
        args: [deployer],
      });
      await publicClient.waitForTransactionReceipt({ hash });
    } finally {
      await testClient.stopImpersonatingAccount({ address: CREATE2_DEPLOYER });
    }
  }
  await sendAndWait(clients, {
    address: factory,
    abi: uniswapV3FactoryAbi,
    functionName: 'enableFeeAmount',
    args: [STABLE_FEE_TIER.fee, STABLE_FEE_TIER.tickSpacing],
  });
}
