/**
 * PrepareIntentRecovery: what the owner can recover from an intent's addresses, and the EIP-712 recovery to
 * sign for one balance. The balances are read on every configured chain (a deposit on the wrong chain sits at
 * the same address there); the payload covers the balance of `tokenAddress` when named, else the one worth
 * most in USD. It sends everything to `refundToAddress` (default: the owner) and carries a `maxFee` when the
 * balance covers the relayer's gas, so the same signature serves RelayIntentRecovery (gasless) and a
 * transaction anyone sends with BuildIntentRecoveryTransaction (which keeps no fee).
 */
import { randomBytes } from 'node:crypto';
import { type Address, isAddressEqual, zeroAddress } from 'viem';
import { recoveryDigest } from '../../contracts/recovery-typed-data.ts';
import type { Recovery } from '../../contracts/types.ts';
import { chainNow } from '../../engine/chain-reads.ts';
import { createAddressBalances } from './address-balances.ts';
import { RECOVERY_SIGNATURE_TTL_SECONDS } from './constants.ts';
import { NothingToRecoverError, RecoveryInputError } from './errors.ts';
import { accountAt, loadIntent } from './intent-accounts.ts';
import { type HeldBack, readRecoverableBalances } from './recoverable-balances.ts';
import { toPayload, typedDataJson } from './recovery-payload.ts';
import { relayMaxFee } from './relay-fee.ts';
import type { PreparedRecovery, PrepareRecoveryInput, RecoverableBalance, RecoveryDeps } from './types.ts';

export function createPrepareIntentRecovery(deps: RecoveryDeps) {
  const randomNonce = deps.randomNonce ?? (() => BigInt(`0x${randomBytes(32).toString('hex')}`));
  const reads = { clients: deps.clients, readBalances: createAddressBalances(deps) };
  return async (input: PrepareRecoveryInput, projectId: number): Promise<PreparedRecovery> => {
    const loaded = await loadIntent(deps, projectId, input.intentId);
    const accounts = input.intentAddress
      ? [accountAt(loaded, input.intentAddress, 'intentAddress')]
      : loaded.accounts;
    const recipient = (input.refundToAddress ?? loaded.record.ownerAddress) as Address;
    if (isAddressEqual(recipient, zeroAddress)) {
      throw new RecoveryInputError('refundToAddress', 'must not be the zero address (the tokens would burn)');
    }
    const token = input.tokenAddress as Address | undefined;
    const balances = await readRecoverableBalances(reads, loaded, accounts, token);
    const chosen = choose(balances.recoverable, token);
    if (!chosen) throw nothingToRecover(loaded.record.intentId, token, balances.heldBack);

    const chain = deps.chains.find((c) => c.chainId === chosen.chainId)!;
    const client = deps.clients.get(chosen.chainId)!;
    const recovery: Recovery = {
      token: chosen.token,
      recipient,
      cancelIntent: chosen.cancelIntent,
      maxFee: await relayMaxFee(deps, chain, chosen),
      nonce: randomNonce(),
      deadline: (await chainNow(client)) + RECOVERY_SIGNATURE_TTL_SECONDS,
    };
    const payload = toPayload(chosen.chainId, chosen.intentAddress, recovery);
    return {
      intentId: loaded.record.intentId,
      intentAddress: chosen.intentAddress,
      chainId: chosen.chainId,
      intentSource: chosen.source,
      recoverable: [chosen, ...balances.recoverable.filter((b) => b !== chosen)],
      payload,
      typedData: typedDataJson(payload),
      payloadHash: recoveryDigest({
        chainId: BigInt(chosen.chainId),
        account: chosen.intentAddress,
        recovery,
      }),
    };
  };
}

/** The named token's largest balance, else the balance worth most in USD (priced first), else the first. */
function choose(balances: readonly RecoverableBalance[], token: Address | undefined) {
  const candidates = token ? balances.filter((b) => isAddressEqual(b.token, token)) : balances;
  return [...candidates].sort((a, b) => {
    if (token) return a.amount > b.amount ? -1 : a.amount < b.amount ? 1 : 0;
    return (b.valueUsd ?? -1) - (a.valueUsd ?? -1);
  })[0];
}

function nothingToRecover(intentId: string, token: Address | undefined, heldBack: readonly HeldBack[]) {
  const what = token ? `no ${token}` : 'nothing';
  const held = heldBack.map(
    (h) =>
      `${h.amount} of ${h.token} at ${h.intentAddress} on chain ${h.chainId} is this intent's deposit and it may still run (until chain time ${h.deadline}); it is returned to the owner if it does not`,
  );
  return new NothingToRecoverError(
    `intent ${intentId}'s addresses hold ${what} the owner can recover on any configured chain${held.length ? `: ${held.join('; ')}` : ''}`,
    { details: { intentId } },
  );
}
