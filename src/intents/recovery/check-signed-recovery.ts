/**
 * What BuildIntentRecoveryTransaction and RelayIntentRecovery check before they hand out or send a signed
 * recovery, so neither answers a transaction that would revert: the payload is this intent's (its address,
 * a configured chain, the recipient asked for), the signature is the owner's over it, it has not expired or
 * been used, and the call succeeds in a simulation with the fee asked for. Every refusal names the member.
 */
import { type Address, type Hex, isAddressEqual, type PublicClient, recoverTypedDataAddress } from 'viem';
import { SimulationRevertedError } from '../../chains/errors.ts';
import { withChainErrors } from '../../chains/map-chain-error.ts';
import { intentAccountAbi } from '../../contracts/abis.generated.ts';
import { encodeDeployIfNeededAndRecover, encodeRecover } from '../../contracts/calldata.ts';
import { recoveryDigest, recoveryTypedData } from '../../contracts/recovery-typed-data.ts';
import type { Recovery } from '../../contracts/types.ts';
import { chainNow } from '../../engine/chain-reads.ts';
import type { ChainConfig } from '../../internal/config-types.ts';
import {
  NothingToRecoverError,
  RecoveryInputError,
  RecoverySignatureError,
  RecoveryStatusError,
} from './errors.ts';
import { accountAt, type IntentAccount, type LoadedIntent, loadIntent } from './intent-accounts.ts';
import { parsePayload, parseSignature, recoveryOf } from './recovery-payload.ts';
import type { RecoveryDeps, RecoveryPayload, SignedRecoveryInput } from './types.ts';

/** Bytes of an r, s, v signature: the only kind whose signer can be named when it is not the owner's. */
const ECDSA_SIGNATURE_HEX_LENGTH = 132;

export interface CheckedRecovery {
  loaded: LoadedIntent;
  account: IntentAccount;
  payload: RecoveryPayload;
  recovery: Recovery;
  signature: Hex;
  chain: ChainConfig;
  /** The account has no code yet: the transaction goes through the factory, which deploys it first. */
  requiresDeploy: boolean;
  /** Where to send it and with what calldata (the fee argument as asked). */
  to: Address;
  data: Hex;
  payloadHash: Hex;
}

export async function checkSignedRecovery(
  deps: RecoveryDeps,
  input: SignedRecoveryInput,
  projectId: number,
  sender: { fee: (payload: RecoveryPayload) => bigint; from?: Address | undefined },
): Promise<CheckedRecovery> {
  const loaded = await loadIntent(deps, projectId, input.intentId);
  const account = accountAt(loaded, input.intentAddress, 'intentAddress');
  const payload = parsePayload(input.payload);
  if (!isAddressEqual(payload.intentAddress, account.address)) {
    throw new RecoveryInputError(
      'payload.intentAddress',
      `is ${payload.intentAddress}, not intentAddress ${input.intentAddress}`,
    );
  }
  const chain = deps.chains.find((c) => c.chainId === payload.chainId);
  const client = deps.clients.get(payload.chainId);
  if (!chain || !client) {
    throw new RecoveryInputError('payload.chainId', `chain ${payload.chainId} is not one this service runs`);
  }
  if (input.refundToAddress && !isAddressEqual(input.refundToAddress as Address, payload.recipient)) {
    throw new RecoveryInputError(
      'refundToAddress',
      `is ${input.refundToAddress}, but the signed payload sends to ${payload.recipient}; prepare a recovery for this address`,
    );
  }
  const recovery = recoveryOf(payload);
  const signature = parseSignature(input.signature);
  await checkSignature(client, account, payload, recovery, signature);
  await checkFresh(client, account, recovery);
  const code = await withChainErrors(() => client.getCode({ address: account.address }), {
    chainId: chain.chainId,
  });
  const requiresDeploy = !code || code === '0x';
  const asked = sender.fee(payload);
  const to = requiresDeploy ? (chain.contracts.intentFactory as Address) : account.address;
  const data = requiresDeploy
    ? encodeDeployIfNeededAndRecover(account.intent, recovery, asked, signature)
    : encodeRecover(account.intent, recovery, asked, signature);
  await simulate(client, chain, { to, data, from: sender.from }, loaded);
  return {
    loaded,
    account,
    payload,
    recovery,
    signature,
    chain,
    requiresDeploy,
    to,
    data,
    payloadHash: recoveryDigest({ chainId: BigInt(chain.chainId), account: account.address, recovery }),
  };
}

/** The owner's signature (an EOA's, or a contract owner's by ERC-1271), else which key signed instead. */
async function checkSignature(
  client: PublicClient,
  account: IntentAccount,
  payload: RecoveryPayload,
  recovery: Recovery,
  signature: Hex,
): Promise<void> {
  const typed = recoveryTypedData({ chainId: BigInt(payload.chainId), account: account.address, recovery });
  const owner = account.intent.owner;
  const hash = recoveryDigest({ chainId: BigInt(payload.chainId), account: account.address, recovery });
  const valid = await withChainErrors(() =>
    client.verifyHash({ address: owner, hash, signature, blockTag: 'latest' }),
  );
  if (valid) return;
  const signer =
    signature.length === ECDSA_SIGNATURE_HEX_LENGTH
      ? await recoverTypedDataAddress({ ...typed, signature }).catch(() => undefined)
      : undefined;
  throw new RecoverySignatureError(
    'signature',
    `is not the intent owner ${owner}'s signature over this payload${signer ? ` (it recovers ${signer})` : ''}; the owner signs the typedData PrepareIntentRecovery answered, unchanged`,
  );
}

/** Not expired by the chain's clock, and (on a deployed account) its nonce not used. */
async function checkFresh(client: PublicClient, account: IntentAccount, recovery: Recovery): Promise<void> {
  const now = await chainNow(client);
  if (now >= recovery.deadline) {
    throw new RecoveryInputError(
      'payload.deadline',
      `the signature expired at chain time ${recovery.deadline} (now ${now}); prepare and sign a new recovery`,
    );
  }
  const used = await withChainErrors(() =>
    client
      .readContract({
        address: account.address,
        abi: intentAccountAbi,
        functionName: 'recoveryNonceUsed',
        args: [recovery.nonce],
      })
      .catch((error: unknown) => {
        // No account yet: no nonce can have been used.
        if ((error as { name?: string }).name === 'ContractFunctionExecutionError') return false;
        throw error;
      }),
  );
  if (used) {
    throw new RecoveryInputError(
      'payload.nonce',
      'this signed recovery was already sent (its nonce is used on-chain); prepare a new one for what is left',
    );
  }
}

/** The recovery as the chain would run it now; a revert becomes the refusal that explains it. */
async function simulate(
  client: PublicClient,
  chain: ChainConfig,
  call: { to: Address; data: Hex; from?: Address | undefined },
  loaded: LoadedIntent,
): Promise<void> {
  try {
    await withChainErrors(
      () => client.call({ to: call.to, data: call.data, ...(call.from && { account: call.from }) }),
      { chainId: chain.chainId },
    );
  } catch (error) {
    if (!(error instanceof SimulationRevertedError)) throw error;
    const { reason } = error;
    if (reason.startsWith('NothingToRecover')) {
      throw new NothingToRecoverError(
        `the address holds none of the payload's token any more on chain ${chain.chainId} (${reason}); it may have been recovered or refunded already`,
      );
    }
    if (reason.startsWith('DepositTokenLocked')) {
      throw new RecoveryStatusError(
        `intent ${loaded.record.intentId} can still run with this deposit, and the payload does not cancel it (${reason}); prepare a new recovery`,
        loaded.record.status,
      );
    }
    throw new RecoveryInputError('payload', `the recovery would revert on chain ${chain.chainId}: ${reason}`);
  }
}
