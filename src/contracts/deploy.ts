/**
 * Deploys Switchyard's contracts (verifier, settlers, factory + implementation) through the CREATE2 deployer
 * with fixed salts, so they sit at the same addresses on every chain that uses the same attester and grace.
 * Idempotent: contracts that already have code are skipped.
 */
import { type Address, encodeDeployData, type PublicClient } from 'viem';
import type { SwitchyardContracts } from '../internal/config-types.ts';
import type { Logger } from '../internal/logger.ts';
import {
  attestedFillVerifierAbi,
  destinationSettlerAbi,
  intentFactoryAbi,
  originSettlerAbi,
} from './abis.generated.ts';
import { loadArtifact } from './artifacts.ts';
import { type DeployWalletClient, deployCreate2, ensureCreate2Deployer, switchyardSalt } from './create2.ts';

export interface DeploySwitchyardOptions {
  publicClient: PublicClient;
  walletClient: DeployWalletClient;
  /** The attester key's address (never the relayer's). */
  attester: Address;
  /** Seconds after an order's fill deadline before anyone may refund it. */
  graceSeconds: bigint;
  log?: Pick<Logger, 'info'>;
}

export async function deploySwitchyardContracts(
  options: DeploySwitchyardOptions,
): Promise<SwitchyardContracts> {
  const { publicClient, walletClient, log } = options;
  await ensureCreate2Deployer(publicClient);
  const deploy = async (name: string, data: `0x${string}`): Promise<Address> => {
    const result = await deployCreate2({
      publicClient,
      walletClient,
      salt: switchyardSalt(name),
      initCode: data,
    });
    log?.info(result.deployed ? `deployed ${name}` : `${name} already deployed`, { address: result.address });
    return result.address;
  };

  const fillVerifier = await deploy(
    'AttestedFillVerifier',
    encodeDeployData({
      abi: attestedFillVerifierAbi,
      bytecode: loadArtifact('AttestedFillVerifier').bytecode,
      args: [options.attester],
    }),
  );
  const originSettler = await deploy(
    'OriginSettler',
    encodeDeployData({
      abi: originSettlerAbi,
      bytecode: loadArtifact('OriginSettler').bytecode,
      args: [fillVerifier, options.graceSeconds],
    }),
  );
  const destinationSettler = await deploy(
    'DestinationSettler',
    encodeDeployData({ abi: destinationSettlerAbi, bytecode: loadArtifact('DestinationSettler').bytecode }),
  );
  const intentFactory = await deploy(
    'IntentFactory',
    encodeDeployData({ abi: intentFactoryAbi, bytecode: loadArtifact('IntentFactory').bytecode }),
  );
  const intentAccountImplementation = await publicClient.readContract({
    address: intentFactory,
    abi: intentFactoryAbi,
    functionName: 'implementation',
  });
  return { intentFactory, intentAccountImplementation, originSettler, destinationSettler, fillVerifier };
}
