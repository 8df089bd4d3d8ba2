/**
 * Uniswap V2 artifacts exactly as npm ships them. Never recompile these: Router02 hard-codes the
 * pair init-code hash of this very build (0x96e8ac42…).
 */
import { createRequire } from 'node:module';
import type { Abi, Hex } from 'viem';

interface NpmArtifact {
  abi: Abi;
  /** Hex without the 0x prefix, as the Uniswap packages ship it. */
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
}

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
  };
}
