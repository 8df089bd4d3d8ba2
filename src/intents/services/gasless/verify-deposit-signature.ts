/**
 * Checks a gasless deposit before the engine spends any gas on it (docs/intents.md, "Gasless deposits"):
 * the selected fee option is the quote's, the signed deadline has not passed, the intent signature
 * recovers the owner over this intent's address, chain, token, amount, deadline, fee amount and fee
 * collector, and the deposit authorization (EIP-2612 permit or EIP-3009 ReceiveWithAuthorization) is the
 * owner's, for this account and amount, and still usable. Each refusal is an InvalidInputError naming the
 * field.
 */
import { type Address, erc20Abi, type Hex, isAddressEqual, type PublicClient, zeroAddress } from 'viem';
import { withChainErrors } from '../../../chains/map-chain-error.ts';
import { devUsdcAbi } from '../../../contracts/abis.generated.ts';
import { depositAuthorizationNonce } from '../../../contracts/auth-data.ts';
import { balanceAt, chainNow } from '../../../engine/chain-reads.ts';
import {
  isReceiveAuthorization,
  permitFor,
  signedBy,
} from '../../../engine/gasless/classify-authorization.ts';
import {
  type DepositIntentEntry,
  differingEntryField,
  readDepositIntentEntry,
  toDepositIntentEntry,
} from '../../../engine/gasless/deposit-intent-entry.ts';
import { readTokenDomain } from '../../../engine/gasless/token-domain.ts';
import type { ChainConfig } from '../../../internal/config-types.ts';
import { InvalidInputError } from '../../../internal/errors.ts';
import type { IntentRecord, Store } from '../../../store/types.ts';
import type { ExecutionPlan } from '../../plan/types.ts';
import { decodePlan } from '../../plan-codec.ts';
import { explainIntentSignature } from './explain-intent-signature.ts';
import { type SelectedOption, selectFeeOption } from './select-fee-option.ts';
import { type TrailsIntentFields, trailsIntentTypedData } from './trails-intent-typed-data.ts';

/** The decoded wire DepositSignature (bigints already bigint). */
export interface DepositSignatureInput {
  intentSignature: string;
  permitSignature?: string | undefined;
  permitDeadline?: number | undefined;
  permitAmount?: bigint | undefined;
  selectedGasFeeOption: SelectedOption;
  userNonce: number;
  deadline: number;
}

export interface VerifyDeps {
  store: Store;
  chains: readonly ChainConfig[];
  clients: ReadonlyMap<number, PublicClient>;
}

export async function verifyDepositSignature(
  deps: VerifyDeps,
  input: { projectId: number; record: IntentRecord; signature: DepositSignatureInput },
): Promise<void> {
  const { record, signature } = input;
  if (!record.planJson) {
    throw new InvalidInputError(
      'depositSignature',
      `intent ${record.intentId} has no stored plan to verify against`,
    );
  }
  const plan = decodePlan(record.planJson);
  const o = plan.origin.intent;
  const stored = await readDepositIntentEntry(deps.store, record.intentId);
  if (stored) return checkRepeat(record.intentId, o.depositAmount, stored, signature);
  if (isAddressEqual(o.depositToken, zeroAddress)) {
    throw new InvalidInputError('depositSignature', 'a native-currency deposit cannot be gasless: send it');
  }
  const chain = deps.chains.find((c) => BigInt(c.chainId) === o.chainId);
  const client = deps.clients.get(Number(o.chainId));
  if (!chain || !client) throw new Error(`origin chain ${o.chainId} is not configured`);

  const option = selectFeeOption(plan, signature.selectedGasFeeOption);
  const now = await chainNow(client);
  notExpired('depositSignature.deadline', signature.deadline, now);
  const expected: TrailsIntentFields = {
    chainId: o.chainId,
    entrypoint: chain.contracts.intentFactory,
    user: o.owner,
    token: o.depositToken,
    amount: o.depositAmount,
    intentAddress: plan.origin.address,
    deadline: BigInt(signature.deadline),
    nonce: BigInt(signature.userNonce),
    feeAmount: option.amount,
    feeCollector: plan.gasFeeOptions.feeCollectorAddress,
  };
  const intentSignature = signature.intentSignature as Hex;
  if (!(await signedBy({ ...trailsIntentTypedData(expected), signature: intentSignature }, o.owner))) {
    throw await explainIntentSignature({
      ...deps,
      projectId: input.projectId,
      intentId: record.intentId,
      plan,
      signature: intentSignature,
      expected,
    });
  }
  await checkAuthorization(client, plan, signature, now);
}

/**
 * ExecuteIntent again once a signature was accepted: the stored entry was verified in full when it was
 * first accepted, and since then its permit may be spent (the token nonce moved) and the owner's tokens
 * pulled, so the checks above cannot run again. The repeat must equal it member by member; the engine
 * never replaces a stored entry either (record-gasless-request.ts).
 */
function checkRepeat(
  intentId: string,
  depositAmount: bigint,
  stored: DepositIntentEntry,
  signature: DepositSignatureInput,
): void {
  const field = differingEntryField(stored, toDepositIntentEntry(signature));
  if (field) {
    throw new InvalidInputError(
      field,
      `differs from the deposit signature intent ${intentId} already holds (verified when first accepted); a repeat must send the same signature`,
    );
  }
  checkPermitAmount(signature, depositAmount);
}

function checkPermitAmount(signature: DepositSignatureInput, depositAmount: bigint): void {
  if (signature.permitAmount !== undefined && signature.permitAmount !== depositAmount) {
    throw new InvalidInputError(
      'depositSignature.permitAmount',
      `must be the deposit amount ${depositAmount} (the account pulls exactly that), got ${signature.permitAmount}`,
    );
  }
}

function notExpired(field: string, deadline: number, now: bigint): void {
  if (BigInt(deadline) <= now) {
    throw new InvalidInputError(field, `expired at ${deadline} (unix seconds); the chain's time is ${now}`);
  }
}

/** The permit / authorization that lets the origin account pull the deposit from the owner. */
async function checkAuthorization(
  client: PublicClient,
  plan: ExecutionPlan,
  signature: DepositSignatureInput,
  now: bigint,
): Promise<void> {
  const o = plan.origin.intent;
  const account = plan.origin.address;
  const held = await balanceAt(client, o.depositToken, o.owner);
  const inAccount = await balanceAt(client, o.depositToken, account);
  if (inAccount >= o.depositAmount) return; // already deposited by a transfer: nothing to pull
  if (held < o.depositAmount) {
    throw new InvalidInputError(
      'depositSignature',
      `the owner ${o.owner} holds ${held} of the ${o.depositAmount} base units the deposit pulls`,
    );
  }
  if (!signature.permitSignature) {
    const allowance = await readAllowance(client, o.depositToken, o.owner, account);
    if (allowance >= o.depositAmount) return;
    throw new InvalidInputError(
      'depositSignature.permitSignature',
      `is required: the owner has not approved the origin account ${account} for ${o.depositAmount}`,
    );
  }
  if (signature.permitDeadline === undefined) {
    throw new InvalidInputError('depositSignature.permitDeadline', 'is required with permitSignature');
  }
  checkPermitAmount(signature, o.depositAmount);
  notExpired('depositSignature.permitDeadline', signature.permitDeadline, now);
  const subject = {
    signature: signature.permitSignature as Hex,
    owner: o.owner,
    account,
    token: o.depositToken,
    domain: await readTokenDomain(client, o.depositToken),
    chainId: o.chainId,
    amount: o.depositAmount,
    deadline: BigInt(signature.permitDeadline),
    intentHash: plan.origin.hash,
  };
  if (await isReceiveAuthorization(subject)) {
    await authorizationUnused(client, o.depositToken, o.owner, depositAuthorizationNonce(plan.origin.hash));
    return;
  }
  const nonce = await withChainErrors(() =>
    client.readContract({
      address: o.depositToken,
      abi: devUsdcAbi,
      functionName: 'nonces',
      args: [o.owner],
    }),
  );
  if (await signedBy({ ...permitFor(subject, nonce), signature: subject.signature }, o.owner)) return;
  throw new InvalidInputError(
    'depositSignature.permitSignature',
    `is neither the owner's EIP-2612 permit (spender = the origin account ${account}, value ${o.depositAmount}, ` +
      `nonce ${nonce}, deadline = permitDeadline) nor their EIP-3009 ReceiveWithAuthorization (to = the account, ` +
      'validAfter 0, validBefore = permitDeadline, nonce = keccak256(intentId ‖ "deposit"))',
  );
}

function readAllowance(client: PublicClient, token: Address, owner: Address, spender: Address) {
  return withChainErrors(() =>
    client.readContract({ address: token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] }),
  );
}

async function authorizationUnused(client: PublicClient, token: Address, owner: Address, nonce: Hex) {
  const used = await withChainErrors(() =>
    client.readContract({
      address: token,
      abi: devUsdcAbi,
      functionName: 'authorizationState',
      args: [owner, nonce],
    }),
  );
  if (used) {
    throw new InvalidInputError(
      'depositSignature.permitSignature',
      'this EIP-3009 authorization was already used',
    );
  }
}
