/**
 * `switchyard config init` as a child process against fresh anvil chains with our contracts deployed: a
 * chain with a public network's id gets the registry's facts (and leaves out registry tokens without code), an
 * unknown chain takes --token and --price, the file is one `serve` accepts, and it holds no secret. A chain
 * without our contracts, a --token that is no ERC-20 and an existing file are refused.
 */
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createWalletClient, http, parseEther, zeroAddress } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/api/resolve-config.ts';
import { deploySwitchyardContracts } from '../../src/contracts/deploy.ts';
import { DEFAULT_SETTLEMENT_GRACE_SECONDS } from '../../src/intents/plan/constants.ts';
import type { SwitchyardContracts } from '../../src/internal/config-types.ts';
import { type FreshChain, startFreshChain } from './support/fresh-chain.ts';
import { runCli } from './support/run-cli.ts';

const BASE_CHAIN_ID = 8453;
const BASE_USDC: `0x${string}` = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
/** Uniswap V3 on Base, as docs.uniswap.org lists it (the registry's entries, typed again here). */
const BASE_UNISWAP_V3: Record<string, `0x${string}`> = {
  uniswapV3Factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
  uniswapV3TickLens: '0x0CdeE061c75D43c82520eD998C23ac2991c9ac6d',
  uniswapV3QuoterV2: '0x3d4e44Eb1374240CE5F1B871ab261CD16335B76a',
  uniswapV3PositionManager: '0x03a520b32C04BF3bEEf7BEb72E919cf822Ed34f1',
  uniswapSwapRouter02: '0x2626664c2603336E57B271c5C0b26F421741e481',
};
const UNKNOWN_CHAIN_ID = 515_101;

const attesterKey = generatePrivateKey();
const deployerKey = generatePrivateKey();
const env = {
  SWITCHYARD_ATTESTER_KEY: attesterKey,
  SWITCHYARD_DEPLOYER_KEY: deployerKey,
  DATABASE_URL: 'postgres://switchyard:s3cret-password@db.internal/switchyard',
};

let dir: string;
let base: FreshChain;
let unknown: FreshChain;
let bare: FreshChain;
let weth: `0x${string}`;
let ours: SwitchyardContracts;

async function deployOurs(chain: FreshChain): Promise<SwitchyardContracts> {
  const account = privateKeyToAccount(deployerKey);
  await chain.fund(account.address, parseEther('10'));
  return deploySwitchyardContracts({
    publicClient: chain.client,
    walletClient: createWalletClient({ chain: chain.chain, transport: http(chain.rpcUrl), account }),
    attester: privateKeyToAccount(attesterKey).address,
    graceSeconds: DEFAULT_SETTLEMENT_GRACE_SECONDS,
  });
}

const init = (args: string[]) => runCli(['config', 'init', ...args], env, dir);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sw-config-init-'));
  [base, unknown, bare] = await Promise.all([
    startFreshChain(BASE_CHAIN_ID),
    startFreshChain(UNKNOWN_CHAIN_ID),
    startFreshChain(UNKNOWN_CHAIN_ID + 1),
  ]);
  [ours] = await Promise.all([deployOurs(base), deployOurs(unknown)]);
  weth = await unknown.deployWeth9();
  // Base's USDC and Uniswap V3, as if the chain were Base: any code makes a registry entry count as present.
  for (const address of [BASE_USDC, ...Object.values(BASE_UNISWAP_V3)]) {
    await base.test.setCode({ address, bytecode: '0x00' });
  }
}, 120_000);
afterAll(async () => {
  await Promise.all([base, unknown, bare].map((c) => c?.stop()));
  await rm(dir, { recursive: true, force: true });
});

describe('switchyard config init', () => {
  it('writes a serve config: registry facts for a known chain, --token and --price for an unknown one', async () => {
    const { code, stdout, stderr } = await init([
      ...['--rpc-url', base.rpcUrl, '--rpc-url', unknown.rpcUrl],
      ...['--token', `WETH=${weth}@${UNKNOWN_CHAIN_ID}`, '--price', 'ETH=3000', '--price', 'WETH=3000'],
      ...['--max-fee-gwei', `${BASE_CHAIN_ID}=0.5`, '--max-fee-gwei', `${UNKNOWN_CHAIN_ID}=40`],
      ...['--low-water', `USDC@${BASE_CHAIN_ID}=5000.25`, '--low-water', `WETH@${UNKNOWN_CHAIN_ID}=2`],
      ...['--out', 'serve.json'],
    ]);
    expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('wrote serve.json');
    // What was left out or assumed is said.
    expect(stderr).toContain(
      "chain 8453: the registry's WETH 0x4200000000000000000000000000000000000006 has no code",
    );
    expect(stderr).toContain(`chain ${UNKNOWN_CHAIN_ID} is not in the public-network registry`);

    const file = JSON.parse(await readFile(path.join(dir, 'serve.json'), 'utf8'));
    const [onBase, onUnknown] = file.chains;
    expect(onBase).toMatchObject({
      chainId: BASE_CHAIN_ID,
      name: 'Base',
      explorerUrl: 'https://basescan.org',
      confirmations: 10,
      isTestnet: false,
      nativeCurrency: { symbol: 'ETH', decimals: 18 },
      rpcUrls: [base.rpcUrl],
    });
    expect(onBase.tokens.map((t: { symbol: string }) => t.symbol)).toEqual(['ETH', 'USDC']);
    expect(onBase.tokens[1]).toMatchObject({ address: BASE_USDC, decimals: 6, isUsdReference: true });
    // The solver's settings: the fee cap in gwei as given, the low-water mark in the token's base units.
    expect(onBase.maxFeePerGasGwei).toBe('0.5');
    expect(onBase.tokens[1].lowWaterMark).toBe('5000250000');
    expect(onUnknown.maxFeePerGasGwei).toBe('40');
    // The registry's Uniswap V3 contracts, under the names the providers read; V2 has no code here.
    expect(onBase.contracts).toEqual({ ...ours, ...BASE_UNISWAP_V3 });
    expect(stderr).toContain(`chain 8453: the registry's uniswapV2Factory`);
    expect(onUnknown).toMatchObject({
      chainId: UNKNOWN_CHAIN_ID,
      name: `Chain ${UNKNOWN_CHAIN_ID}`,
      confirmations: 1,
    });
    expect(onUnknown.tokens).toEqual([
      { symbol: 'ETH', name: 'Ether', address: zeroAddress, decimals: 18, featured: true },
      {
        symbol: 'WETH',
        name: 'Wrapped Ether',
        address: weth,
        decimals: 18,
        featured: true,
        lowWaterMark: '2000000000000000000',
      },
    ]);
    expect(onUnknown.contracts).toEqual({ ...ours, weth });
    expect(file.prices).toEqual({
      [`${UNKNOWN_CHAIN_ID}:${zeroAddress}`]: 3000,
      [`${UNKNOWN_CHAIN_ID}:${weth.toLowerCase()}`]: 3000,
      [`${BASE_CHAIN_ID}:${zeroAddress}`]: 3000,
    });

    // serve's own parser takes it as it is.
    const resolved = resolveConfig({ configPath: path.join(dir, 'serve.json'), env: {}, flags: {} });
    expect(resolved.chains.map((c) => c.chainId)).toEqual([BASE_CHAIN_ID, UNKNOWN_CHAIN_ID]);
    expect(resolved.chains.map((c) => c.maxFeePerGasWei)).toEqual([500_000_000n, 40_000_000_000n]);
    expect(resolved.chains[0]!.tokens[1]!.lowWaterMark).toBe(5_000_250_000n);
    expect(resolved.chains[1]!.tokens[1]!.lowWaterMark).toBe(2n * 10n ** 18n);
  }, 120_000);

  it('writes no secret, and a file only its owner can read', async () => {
    const text = await readFile(path.join(dir, 'serve.json'), 'utf8');
    for (const secret of [attesterKey, attesterKey.slice(2), deployerKey.slice(2), 's3cret-password']) {
      expect(text).not.toContain(secret);
    }
    expect((await stat(path.join(dir, 'serve.json'))).mode & 0o777).toBe(0o600);
  });

  it('refuses to overwrite a file without --force', async () => {
    await writeFile(path.join(dir, 'kept.json'), '{}');
    const { code, stderr } = await init(['--rpc-url', unknown.rpcUrl, '--out', 'kept.json']);
    expect(code).toBe(1);
    expect(stderr).toContain('kept.json exists; pass --force to overwrite it');
    expect(await readFile(path.join(dir, 'kept.json'), 'utf8')).toBe('{}');
  });

  it('refuses a chain where Switchyard is not deployed, saying to run deploy', async () => {
    const { code, stderr } = await init(['--rpc-url', bare.rpcUrl, '--out', 'bare.json']);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `chain ${UNKNOWN_CHAIN_ID + 1}: fillVerifier at ${ours.fillVerifier} has no code`,
    );
    expect(stderr).toContain('run switchyard deploy');
  }, 60_000);

  it('refuses a --token that is no ERC-20, a --price nothing has, and malformed flags', async () => {
    // Each refusal is its own process and writes nothing: they run side by side.
    const [notToken, noSuchSymbol, malformed, badPrice] = await Promise.all([
      init([
        ...['--rpc-url', unknown.rpcUrl, '--out', 'x.json'],
        ...['--token', `USDC=${ours.destinationSettler}@${UNKNOWN_CHAIN_ID}`],
      ]),
      init(['--rpc-url', unknown.rpcUrl, '--out', 'x.json', '--price', 'DOGE=0.1']),
      init(['--rpc-url', unknown.rpcUrl, '--out', 'x.json', '--token', 'WETH=0x12']),
      init(['--rpc-url', unknown.rpcUrl, '--out', 'x.json', '--price', 'ETH=-1']),
    ]);
    expect(notToken.code).toBe(1);
    expect(notToken.stderr).toContain(
      `--token USDC=${ours.destinationSettler}@${UNKNOWN_CHAIN_ID}: no ERC-20`,
    );
    expect(noSuchSymbol.code).toBe(1);
    expect(noSuchSymbol.stderr).toContain('--price DOGE=0.1: no chain lists a token called DOGE');
    expect(malformed.code).toBe(1);
    expect(malformed.stderr).toContain('--token WETH=0x12: expected SYMBOL=ADDRESS@CHAINID');
    expect(badPrice.code).toBe(1);
    expect(badPrice.stderr).toContain('--price ETH=-1: expected SYMBOL=USD with a positive price');
  }, 60_000);

  it('refuses a fee cap or low-water mark it cannot write, naming the flag', async () => {
    const on = (...flags: string[]) => init(['--rpc-url', unknown.rpcUrl, '--out', 'x.json', ...flags]);
    const cases: [string[], string][] = [
      [
        ['--max-fee-gwei', `${UNKNOWN_CHAIN_ID}=0`],
        `--max-fee-gwei ${UNKNOWN_CHAIN_ID}=0: expected CHAINID=GWEI`,
      ],
      [['--max-fee-gwei', '1=30'], '--max-fee-gwei 1=30: chain 1 is not one of the --rpc-url chains'],
      [['--low-water', `USDC@${UNKNOWN_CHAIN_ID}=5`], `chain ${UNKNOWN_CHAIN_ID} lists no token called USDC`],
      [['--low-water', `ETH@${UNKNOWN_CHAIN_ID}=5`], "ETH is chain 515101's native currency"],
      [['--low-water', 'USDC=5'], '--low-water USDC=5: expected SYMBOL@CHAINID=AMOUNT'],
      [
        [
          '--token',
          `WETH=${weth}@${UNKNOWN_CHAIN_ID}`,
          '--low-water',
          `WETH@${UNKNOWN_CHAIN_ID}=0.${'0'.repeat(18)}1`,
        ],
        '(whole WETH) has 19 decimal places; the token has 18',
      ],
    ];
    // Each refusal is its own process and writes nothing: they run side by side.
    const outcomes = await Promise.all(cases.map(([flags]) => on(...flags)));
    cases.forEach(([flags, message], i) => {
      const { code, stderr } = outcomes[i]!;
      expect({ flags, code }).toEqual({ flags, code: 1 });
      expect(stderr).toContain(message);
    });
  }, 60_000);
});
