/**
 * What deploying Switchyard means, before anything is sent: for each of our contracts its CREATE2 salt,
 * initcode and address, computed from the attester and the refund grace alone. The same inputs give the
 * same addresses on every chain; the IntentAccount implementation is the factory's first CREATE (nonce 1).
 */
import { type Address, encodeDeployData, getContractAddress, type Hex } from 'viem';
import type { SwitchyardContracts } from '../internal/config-types.ts';
import {
  attestedFillVerifierAbi,
  destinationSettlerAbi,
  intentFactoryAbi,
  originSettlerAbi,
} from './abis.generated.ts';
import { loadArtifact } from './artifacts.ts';
import { create2Address, switchyardSalt } from './create2.ts';

/** A contract sent through the CREATE2 deployer. */
export interface DeploymentStep {
  /** The contract's name in the config and devnet.json (`fillVerifier`, …). */
  contract: keyof SwitchyardContracts;
  /** Its build artifact (`AttestedFillVerifier`, …), whose runtime code the chain must hold. */
  artifact: string;
  salt: Hex;
  initCode: Hex;
  address: Address;
}

export interface SwitchyardDeploymentPlan {
  /** In the order they are sent: each constructor's arguments are already deployed before it. */
  steps: DeploymentStep[];
  contracts: SwitchyardContracts;
}

export interface DeploymentInputs {
  /** The attester key's address (never the relayer's); AttestedFillVerifier's immutable. */
  attester: Address;
  /** Seconds after an order's fill deadline before anyone may refund it; OriginSettler's immutable. */
  graceSeconds: bigint;
}

/** The artifact whose code sits at each contract's address (the implementation is created by the factory). */
export const SWITCHYARD_ARTIFACTS: Record<keyof SwitchyardContracts, string> = {
  fillVerifier: 'AttestedFillVerifier',
  originSettler: 'OriginSettler',
  destinationSettler: 'DestinationSettler',
  intentFactory: 'IntentFactory',
  intentAccountImplementation: 'IntentAccount',
};

/** A contract's first CREATE happens at nonce 1 (EIP-161). */
const FIRST_CONTRACT_NONCE = 1n;

export function planSwitchyardDeployment(inputs: DeploymentInputs): SwitchyardDeploymentPlan {
  const step = (contract: DeploymentStep['contract'], initCode: Hex): DeploymentStep => {
    const artifact = SWITCHYARD_ARTIFACTS[contract];
    const salt = switchyardSalt(artifact);
    return { contract, artifact, salt, initCode, address: create2Address(salt, initCode) };
  };
  const bytecode = (contract: keyof SwitchyardContracts) =>
    loadArtifact(SWITCHYARD_ARTIFACTS[contract]).bytecode;
  const verifier = step(
    'fillVerifier',
    encodeDeployData({
      abi: attestedFillVerifierAbi,
      bytecode: bytecode('fillVerifier'),
      args: [inputs.attester],
    }),
  );
  const steps = [
    verifier,
    step(
      'originSettler',
      encodeDeployData({
        abi: originSettlerAbi,
        bytecode: bytecode('originSettler'),
        args: [verifier.address, inputs.graceSeconds],
      }),
    ),
    step(
      'destinationSettler',
      encodeDeployData({ abi: destinationSettlerAbi, bytecode: bytecode('destinationSettler') }),
    ),
    step('intentFactory', encodeDeployData({ abi: intentFactoryAbi, bytecode: bytecode('intentFactory') })),
  ];
  const [fillVerifier, originSettler, destinationSettler, intentFactory] = steps.map((s) => s.address) as [
    Address,
    Address,
    Address,
    Address,
  ];
  const intentAccountImplementation = getContractAddress({
    from: intentFactory,
    nonce: FIRST_CONTRACT_NONCE,
  });
  return {
    steps,
    contracts: {
      intentFactory,
      intentAccountImplementation,
      originSettler,
      destinationSettler,
      fillVerifier,
    },
  };
}
