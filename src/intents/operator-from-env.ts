/**
 * The operator's keys for `switchyard serve`, from the environment only (never a config file):
 * SWITCHYARD_RELAYER_KEY, SWITCHYARD_SOLVER_KEY, SWITCHYARD_ATTESTER_KEY (0x-prefixed 32-byte private keys)
 * and SWITCHYARD_FEE_COLLECTOR (an address; the relayer's when absent). Returns undefined when no key is set
 * (the server then runs without the intent methods); a partial or malformed set is a ConfigError.
 */
import { type Address, isAddress, type LocalAccount } from 'viem';
import { signingAccount } from '../chains/signing-account.ts';
import { ConfigError } from '../internal/errors.ts';

export interface OperatorKeys {
  relayer: LocalAccount;
  solver: LocalAccount;
  attester: LocalAccount;
  feeCollector: Address;
}

const KEY_VARS = {
  relayer: 'SWITCHYARD_RELAYER_KEY',
  solver: 'SWITCHYARD_SOLVER_KEY',
  attester: 'SWITCHYARD_ATTESTER_KEY',
} as const;
const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

export function operatorFromEnv(env: Record<string, string | undefined>): OperatorKeys | undefined {
  const given = Object.values(KEY_VARS).filter((name) => env[name]);
  if (given.length === 0) return undefined;
  const account = (role: keyof typeof KEY_VARS): LocalAccount => {
    const name = KEY_VARS[role];
    const value = env[name];
    if (!value || !PRIVATE_KEY.test(value)) {
      throw new ConfigError(`${name} must be set to a 0x-prefixed 32-byte private key (the ${role}'s)`);
    }
    return signingAccount(value as `0x${string}`);
  };
  const relayer = account('relayer');
  const collector = env.SWITCHYARD_FEE_COLLECTOR;
  if (collector !== undefined && !isAddress(collector)) {
    throw new ConfigError('SWITCHYARD_FEE_COLLECTOR must be an address');
  }
  return {
    relayer,
    solver: account('solver'),
    attester: account('attester'),
    feeCollector: (collector as Address | undefined) ?? relayer.address,
  };
}
