/**
 * Brings one running chain to the devnet's state: our contracts, Uniswap V2 and V3, tokens, vaults, seeded
 * pools and funded roles. Deployments are CREATE2 and idempotent (a contract already there is not
 * deployed again); seeding and funding run only on a chain whose setup-complete marker does not match
 * this deployment, so a restart keeps whatever happened on the chain since.
 */
import { zeroAddress } from 'viem';
import { deploySwitchyardContracts } from '../contracts/deploy.ts';
import type { Logger } from '../internal/logger.ts';
import type { DevnetAccounts } from './accounts.ts';
import type { DevnetChainClients } from './chain-clients.ts';
import { type DevnetChainSpec, SETTLEMENT_GRACE_SECONDS } from './constants.ts';
import { deployTokens } from './deploy-tokens.ts';
import { deployUniswap } from './deploy-uniswap.ts';
import { deployUniswapV3 } from './deploy-uniswap-v3.ts';
import { deployVaults, seedVaults } from './deploy-vaults.ts';
import type { DevnetChainEntry } from './devnet-file.ts';
import { fundAccounts } from './fund-accounts.ts';
import { seedPools, startAccumulators } from './seed-pools.ts';
import { seedUniswapV3 } from './seed-uniswap-v3.ts';
import { deploymentDigest, hasSetupMarker, markSetupComplete, readSetupState } from './setup-marker.ts';
import type { UniswapArtifacts } from './uniswap-artifacts.ts';

export interface SetupChainInput {
  spec: DevnetChainSpec;
  rpcUrl: string;
  clients: DevnetChainClients;
  accounts: DevnetAccounts;
  uniswap: UniswapArtifacts;
  log: Logger;
}

export async function setupChain(input: SetupChainInput): Promise<DevnetChainEntry> {
  const { clients, log } = input;
  // Deploying is idempotent, so on a set-up chain this only reads the (CREATE2) addresses back.
  const quiet = await hasSetupMarker(clients);
  const deployed = await timed(log, 'deploying contracts…', quiet, () => deployAll(input));
  const entry = chainEntry(input, deployed);
  const digest = deploymentDigest({ ...entry.tokens, ...entry.contracts });
  const state = await readSetupState(clients, digest);
  if (state === 'current') {
    log.info('deployment found in the saved chain state; skipping setup');
    return entry;
  }
  if (state === 'outdated')
    log.warn('saved chain state is from another deployment (contracts changed); setting up again');
  await seedAndFund(input, deployed);
  await markSetupComplete(clients, digest);
  return entry;
}

function chainEntry(input: SetupChainInput, deployed: Deployed): DevnetChainEntry {
  return {
    chainId: input.spec.chainId,
    name: input.spec.name,
    rpcUrl: input.rpcUrl,
    tokens: { ETH: zeroAddress, WETH: deployed.uniswap.weth, ...deployed.tokens },
    contracts: { ...deployed.switchyard, ...deployed.uniswap, ...deployed.uniswapV3, ...deployed.vaults },
  };
}

type Deployed = Awaited<ReturnType<typeof deployAll>>;

async function deployAll({ clients, accounts, spec, uniswap: artifacts, log }: SetupChainInput) {
  const switchyard = await deploySwitchyardContracts({
    publicClient: clients.publicClient,
    walletClient: clients.walletClient,
    attester: accounts.attester.address,
    graceSeconds: SETTLEMENT_GRACE_SECONDS,
    // One line per contract per chain is detail; the step's own line says it happened.
    log: { info: (msg, fields) => log.debug(msg, fields) },
  });
  const uniswap = await deployUniswap(clients, artifacts, accounts.deployer.address);
  const uniswapV3 = await deployUniswapV3(clients, artifacts, uniswap);
  const tokens = await deployTokens(clients);
  const vaults = await deployVaults(clients, spec.vaults, tokens);
  return { switchyard, uniswap, uniswapV3, tokens, vaults };
}

async function seedAndFund({ clients, accounts, spec, log }: SetupChainInput, deployed: Deployed) {
  const { uniswap, uniswapV3, tokens, vaults } = deployed;
  await timed(log, 'seeding pools…', false, async () => {
    const pools = { usdc: tokens.USDC, dai: tokens.DAI, weth: uniswap.weth };
    const v2 = { ...pools, factory: uniswap.uniswapV2Factory, router: uniswap.uniswapV2Router };
    await seedPools(clients, v2, log);
    await seedUniswapV3(
      clients,
      {
        tokens: { USDC: tokens.USDC, DAI: tokens.DAI, WETH: uniswap.weth },
        positionManager: uniswapV3.uniswapV3PositionManager,
      },
      log,
    );
    await seedVaults(clients, vaults, tokens, spec.vaults);
    // Last: its wait for the second after the V2 seeding overlaps the seeding after it.
    await startAccumulators(clients, v2, log);
  });
  await timed(log, 'funding accounts…', false, () =>
    fundAccounts(clients, { accounts, usdc: tokens.USDC, dai: tokens.DAI, weth: uniswap.weth }),
  );
}

async function timed<T>(log: Logger, step: string, quiet: boolean, run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  if (!quiet) log.info(step);
  const result = await run();
  if (!quiet) log.info(`${step.replace(/…$/, '')} done`, { ms: Date.now() - started });
  return result;
}
