/**
 * What `switchyard deploy` and `switchyard config init` take from the environment: the deployer's key
 * (SWITCHYARD_DEPLOYER_KEY, only to send) and the attester's address, from SWITCHYARD_ATTESTER_ADDRESS or
 * derived from SWITCHYARD_ATTESTER_KEY (the address alone keeps the attester key off the deploy machine).
 */
import { type Address, getAddress, isAddress, isAddressEqual, type LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ConfigError } from '../internal/errors.ts';

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

export function attesterFromEnv(env: Record<string, string | undefined>): Address {
  const { SWITCHYARD_ATTESTER_ADDRESS: given, SWITCHYARD_ATTESTER_KEY: key } = env;
  if (given !== undefined && !isAddress(given, { strict: false }))
    throw new ConfigError('SWITCHYARD_ATTESTER_ADDRESS must be an address (0x and 40 hex digits)');
  if (key !== undefined && !PRIVATE_KEY.test(key))
    throw new ConfigError('SWITCHYARD_ATTESTER_KEY must be a 0x-prefixed 32-byte private key');
  const fromKey = key ? privateKeyToAccount(key as `0x${string}`).address : undefined;
  if (given && fromKey && !isAddressEqual(given, fromKey)) {
    throw new ConfigError(
      `SWITCHYARD_ATTESTER_ADDRESS (${given}) is not the address of SWITCHYARD_ATTESTER_KEY (${fromKey}); set one of them`,
    );
  }
  const attester = given ? getAddress(given) : fromKey;
  if (!attester) {
    throw new ConfigError(
      'set SWITCHYARD_ATTESTER_ADDRESS (or SWITCHYARD_ATTESTER_KEY): the attester is part of the contracts, and so of their addresses',
    );
  }
  return attester;
}

export function deployerFromEnv(env: Record<string, string | undefined>): LocalAccount {
  const key = env.SWITCHYARD_DEPLOYER_KEY;
  if (!key || !PRIVATE_KEY.test(key)) {
    throw new ConfigError(
      'SWITCHYARD_DEPLOYER_KEY must be set to a 0x-prefixed 32-byte private key (the account that pays for the deployment)',
    );
  }
  return privateKeyToAccount(key as `0x${string}`);
}
