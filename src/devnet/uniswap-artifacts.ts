/**
 * Uniswap V2 and V3 artifacts exactly as npm ships them. Never recompile these: Router02 hard-codes the V2
 * pair init-code hash of this very build (0x96e8ac42…), and the V3 periphery (position manager, QuoterV2,
 * SwapRouter02) the V3 pool's (0xe34f199b…, checked in test/devnet/uniswap-v3.test.ts).
 */
import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';

interface NpmArtifact {
  abi: Abi;
  /** V2 packages: hex without the 0x prefix; V3 (hardhat) packages: with it. */
  bytecode: string;
}

export interface UniswapArtifact {
  abi: Abi;
  bytecode: Hex;
}

export interface UniswapArtifacts {
  factory: UniswapArtifact;
  router02: UniswapArtifact;
  weth9: UniswapArtifact;
  v3Factory: UniswapArtifact;
  /** Not deployed by us (the factory creates pools); its bytecode's hash is the periphery's init-code hash. */
  v3Pool: UniswapArtifact;
  positionManager: UniswapArtifact;
  quoterV2: UniswapArtifact;
  swapRouter02: UniswapArtifact;
  tickLens: UniswapArtifact;
}

const V3_CORE = '@uniswap/v3-core/artifacts/contracts';
const V3_PERIPHERY = '@uniswap/v3-periphery/artifacts/contracts';
const SWAP_ROUTER = '@uniswap/swap-router-contracts/artifacts/contracts';

export function loadUniswapArtifacts(): UniswapArtifacts {
  const require = createRequire(import.meta.url);
  const load = (id: string): UniswapArtifact => {
    const artifact = require(id) as NpmArtifact;
    const bytecode = (
      artifact.bytecode.startsWith('0x') ? artifact.bytecode : `0x${artifact.bytecode}`
    ) as Hex;
    return { abi: artifact.abi, bytecode };
  };
  return {
    factory: load('@uniswap/v2-core/build/UniswapV2Factory.json'),
    router02: load('@uniswap/v2-periphery/build/UniswapV2Router02.json'),
    weth9: load('@uniswap/v2-periphery/build/WETH9.json'),
    v3Factory: load(`${V3_CORE}/UniswapV3Factory.sol/UniswapV3Factory.json`),
    v3Pool: load(`${V3_CORE}/UniswapV3Pool.sol/UniswapV3Pool.json`),
    positionManager: load(`${V3_PERIPHERY}/NonfungiblePositionManager.sol/NonfungiblePositionManager.json`),
    quoterV2: load(`${SWAP_ROUTER}/lens/QuoterV2.sol/QuoterV2.json`),
    swapRouter02: load(`${SWAP_ROUTER}/SwapRouter02.sol/SwapRouter02.json`),
    tickLens: load(`${V3_PERIPHERY}/lens/TickLens.sol/TickLens.json`),
  };
}
