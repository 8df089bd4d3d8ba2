/**
 * The devnet's role accounts, derived from anvil's public default mnemonic. These keys are known to
 * everyone: they exist only so that a local devnet works with no setup. Production keys come from
 * the environment.
 */
import { pbkdf2Sync } from 'node:crypto';
import { type Address, type Hex, toHex } from 'viem';
import { HDKey, hdKeyToAccount, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { ANVIL_MNEMONIC, type DevnetRole, ROLE_ACCOUNT_INDEX } from './constants.ts';

/** BIP-39 fixes 2048 rounds of PBKDF2-HMAC-SHA512 to turn a mnemonic into a seed. */
const BIP39_PBKDF2_ROUNDS = 2048;
const BIP39_SEED_BYTES = 64;

export interface DevnetAccount {
  address: Address;
  privateKey: Hex;
}

export type DevnetAccounts = Record<DevnetRole, DevnetAccount>;

export function devnetAccounts(mnemonic: string = ANVIL_MNEMONIC): DevnetAccounts {
  // Node's native PBKDF2 instead of the pure-JS one inside viem's mnemonicToAccount: one seed, ~1 ms.
  const seed = pbkdf2Sync(
    mnemonic.normalize('NFKD'),
    'mnemonic',
    BIP39_PBKDF2_ROUNDS,
    BIP39_SEED_BYTES,
    'sha512',
  );
  const root = HDKey.fromMasterSeed(seed);
  const entries = Object.entries(ROLE_ACCOUNT_INDEX).map(([role, addressIndex]) => {
    const hd = hdKeyToAccount(root, { addressIndex });
    const privateKey = toHex(hd.getHdKey().privateKey!);
    return [role, { address: hd.address, privateKey }] as const;
  });
  return Object.fromEntries(entries) as DevnetAccounts;
}

export function toLocalAccount(account: DevnetAccount): PrivateKeyAccount {
  return privateKeyToAccount(account.privateKey);
}
