/**
 * Reads Uniswap V3 pool state for local swap simulation: `slot0` and `liquidity` of a pool (its address is
 * computed, so a pool that does not exist answers with empty data and is skipped), and the initialized ticks
 * of the bitmap word its price is in — read beside the price when the pool directory remembers the word,
 * after it otherwise — then further words when a simulation reaches them. Ticks come from TickLens (one read
 * per word) when the chain has it, else from the pool's own `tickBitmap` and `ticks`. The directory also
 * spares the reads of pools known not to exist.
 *
 * One reader serves one plan: every read happens once, and the snapshot it builds stays as of that moment.
 */
import { type Address, decodeFunctionResult, type Hex, type PublicClient } from 'viem';
import type { ChainConfig } from '../internal/config-types.ts';
import { uniswapV3PoolAbi, uniswapV3TickLensAbi } from './abis.ts';
import { createCalldataEncoder } from './calldata-encoder.ts';
import type { PoolDirectory } from './pool-directory.ts';
import { FEE_TIER_TICK_SPACING, poolAddress, sortTokens } from './uniswap-v3-pool-address.ts';
import type { V3PoolSnapshot } from './uniswap-v3-simulate-swap.ts';

/**
 * Most bitmap words one pool may have read in a plan. A swap that would walk further moves the price by a
 * factor of ~e^(spacing·2048/10,000) (±22 % for the 0.01 % tier, far more for the others): the pool counts as
 * unable to fill it rather than costing more reads.
 */
export const MAX_WORDS_PER_POOL = 8;

export interface V3PoolState extends V3PoolSnapshot {
  address: Address;
  token0: Address;
  token1: Address;
  words: Map<number, bigint>;
  liquidityNet: Map<number, bigint>;
}

export interface V3PoolReader {
  /** The pool of the two tokens at `fee`, with its first words read; undefined when there is none. */
  pool(chain: ChainConfig, tokenA: Address, tokenB: Address, fee: number): Promise<V3PoolState | undefined>;
  /** Reads one more bitmap word into the pool's snapshot; false when the pool has had its share of words. */
  loadWord(chain: ChainConfig, pool: V3PoolState, word: number): Promise<boolean>;
}

const encode = {
  slot0: createCalldataEncoder(uniswapV3PoolAbi, 'slot0')([]),
  liquidity: createCalldataEncoder(uniswapV3PoolAbi, 'liquidity')([]),
  tickBitmap: createCalldataEncoder(uniswapV3PoolAbi, 'tickBitmap'),
  ticks: createCalldataEncoder(uniswapV3PoolAbi, 'ticks'),
  populated: createCalldataEncoder(uniswapV3TickLensAbi, 'getPopulatedTicksInWord'),
};

export function createV3PoolReader(deps: {
  getClient(chainId: number): PublicClient;
  directory: PoolDirectory;
}): V3PoolReader {
  const pools = new Map<string, Promise<V3PoolState | undefined>>();
  const words = new Map<V3PoolState, Map<number, Promise<void>>>();

  const call = (chain: ChainConfig, to: Address, data: Hex) =>
    deps
      .getClient(chain.chainId)
      .request({ method: 'eth_call', params: [{ to, data }, 'latest'] }) as Promise<Hex>;

  async function readPool(chain: ChainConfig, tokenA: Address, tokenB: Address, fee: number) {
    const factory = chain.contracts.uniswapV3Factory;
    const tickSpacing = FEE_TIER_TICK_SPACING.get(fee);
    if (!factory || tickSpacing === undefined) return undefined;
    const [token0, token1] = sortTokens(tokenA, tokenB);
    const address = poolAddress(factory, token0, token1, fee);
    const known = deps.directory.v3Pool(chain.chainId, address);
    if (known === null) return undefined;
    const state: V3PoolState = {
      address,
      token0,
      token1,
      fee,
      tickSpacing,
      sqrtPriceX96: 0n,
      tick: 0,
      liquidity: 0n,
      words: new Map(),
      liquidityNet: new Map(),
    };
    const guessed = known ? loadWord(chain, state, known.word) : undefined;
    guessed?.catch(() => {}); // awaited below; a rejection before that is not unhandled
    const [slot0, liquidity] = await Promise.all([
      call(chain, address, encode.slot0),
      call(chain, address, encode.liquidity),
    ]);
    // No code at the computed address: no such pool.
    if (slot0 === '0x' || liquidity === '0x') {
      deps.directory.noteV3Pool(chain.chainId, address, null);
      return undefined;
    }
    const [sqrtPriceX96, tick] = decodeFunctionResult({
      abi: uniswapV3PoolAbi,
      functionName: 'slot0',
      data: slot0,
    });
    // Created but never initialised: no price, nothing to trade against (not noted: it may be initialised).
    if (sqrtPriceX96 === 0n) return undefined;
    state.sqrtPriceX96 = sqrtPriceX96;
    state.tick = tick;
    state.liquidity = decodeFunctionResult({
      abi: uniswapV3PoolAbi,
      functionName: 'liquidity',
      data: liquidity,
    });
    const current = Math.floor(tick / tickSpacing) >> 8;
    deps.directory.noteV3Pool(chain.chainId, address, { word: current });
    await guessed;
    await loadWord(chain, state, current);
    return state;
  }

  function loadWord(chain: ChainConfig, pool: V3PoolState, word: number): Promise<boolean> {
    let loaded = words.get(pool);
    if (!loaded) {
      loaded = new Map();
      words.set(pool, loaded);
    }
    const known = loaded.get(word);
    if (known) return known.then(() => true);
    if (loaded.size >= MAX_WORDS_PER_POOL) return Promise.resolve(false);
    const read = (chain.contracts.uniswapV3TickLens ? readWordFromLens : readWordFromPool)(chain, pool, word);
    loaded.set(word, read);
    return read.then(() => true);
  }

  async function readWordFromLens(chain: ChainConfig, pool: V3PoolState, word: number): Promise<void> {
    const data = await call(
      chain,
      chain.contracts.uniswapV3TickLens!,
      encode.populated([pool.address, word]),
    );
    const ticks = decodeFunctionResult({
      abi: uniswapV3TickLensAbi,
      functionName: 'getPopulatedTicksInWord',
      data,
    });
    let bits = 0n;
    for (const t of ticks) {
      bits |= 1n << BigInt((t.tick / pool.tickSpacing) & 0xff);
      pool.liquidityNet.set(t.tick, t.liquidityNet);
    }
    pool.words.set(word, bits);
  }

  async function readWordFromPool(chain: ChainConfig, pool: V3PoolState, word: number): Promise<void> {
    const bitmap = await call(chain, pool.address, encode.tickBitmap([word]));
    const bits = decodeFunctionResult({ abi: uniswapV3PoolAbi, functionName: 'tickBitmap', data: bitmap });
    const ticks: number[] = [];
    for (let bit = 0; bit < 256; bit++) {
      if ((bits >> BigInt(bit)) & 1n) ticks.push((word * 256 + bit) * pool.tickSpacing);
    }
    await Promise.all(
      ticks.map(async (tick) => {
        const data = await call(chain, pool.address, encode.ticks([tick]));
        const [, liquidityNet] = decodeFunctionResult({ abi: uniswapV3PoolAbi, functionName: 'ticks', data });
        pool.liquidityNet.set(tick, liquidityNet);
      }),
    );
    pool.words.set(word, bits);
  }

  return {
    pool(chain, tokenA, tokenB, fee) {
      const [token0, token1] = sortTokens(tokenA, tokenB);
      const key = `${chain.chainId}:${token0.toLowerCase()}:${token1.toLowerCase()}:${fee}`;
      let read = pools.get(key);
      if (!read) {
        read = readPool(chain, token0, token1, fee);
        pools.set(key, read);
      }
      return read;
    },
    loadWord,
  };
}
