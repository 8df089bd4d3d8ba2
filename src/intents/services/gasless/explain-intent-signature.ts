/**
 * Why an intent signature does not recover the owner over this intent: it is tried against the nearby
 * mistakes (another chain, another fee option, another of the owner's intents) so the error names the
 * field that differs; otherwise it was signed by someone else.
 */
import { type Address, type Hex, isAddressEqual, recoverTypedDataAddress, zeroAddress } from 'viem';
import { signedBy } from '../../../engine/gasless/classify-authorization.ts';
import type { ChainConfig } from '../../../internal/config-types.ts';
import { InvalidInputError } from '../../../internal/errors.ts';
import type { Store } from '../../../store/types.ts';
import type { ExecutionPlan } from '../../plan/types.ts';
import { decodePlan } from '../../plan-codec.ts';
import { type TrailsIntentFields, trailsIntentTypedData } from './trails-intent-typed-data.ts';

const SIGNATURE = 'depositSignature.intentSignature';

export interface Explained {
  store: Store;
  chains: readonly ChainConfig[];
  projectId: number;
  intentId: string;
  plan: ExecutionPlan;
  signature: Hex;
  /** The fields as they should have been signed. */
  expected: TrailsIntentFields;
}

export async function explainIntentSignature(e: Explained): Promise<InvalidInputError> {
  const owner = e.expected.user;
  const tries = (fields: TrailsIntentFields) =>
    signedBy({ ...trailsIntentTypedData(fields), signature: e.signature }, owner);

  for (const chain of e.chains) {
    const chainId = BigInt(chain.chainId);
    if (chainId === e.expected.chainId) continue;
    if (await tries({ ...e.expected, chainId, entrypoint: chain.contracts.intentFactory })) {
      return new InvalidInputError(
        SIGNATURE,
        `was signed for chain ${chainId}, but intent ${e.intentId} deposits on chain ${e.expected.chainId}`,
      );
    }
  }
  for (const option of e.plan.gasFeeOptions.feeOptions) {
    if (option.amount === e.expected.feeAmount || isAddressEqual(option.tokenAddress, zeroAddress)) continue;
    if (await tries({ ...e.expected, feeAmount: option.amount })) {
      return new InvalidInputError(
        'depositSignature.selectedGasFeeOption',
        `the signature covers a fee of ${option.amount}, not the selected option's ${e.expected.feeAmount}`,
      );
    }
  }
  const other = await otherIntentSigned(e, tries);
  if (other) {
    return new InvalidInputError(
      SIGNATURE,
      `signs intent ${other} (another origin address and amount), not intent ${e.intentId}`,
    );
  }
  const recovered = await recoverTypedDataAddress({
    ...trailsIntentTypedData(e.expected),
    signature: e.signature,
  }).catch(() => undefined);
  return new InvalidInputError(
    SIGNATURE,
    recovered
      ? `recovers ${recovered}, not the intent owner ${owner}: it must be signed by the owner`
      : 'is not a valid ECDSA signature',
  );
}

/** The id of another intent of this owner (same project) that the signature covers, if any. */
async function otherIntentSigned(
  e: Explained,
  tries: (fields: TrailsIntentFields) => Promise<boolean>,
): Promise<string | undefined> {
  const owner: Address = e.expected.user;
  const others = await e.store.intents.search({ projectId: e.projectId, byOwnerAddress: owner });
  for (const record of others) {
    if (record.intentId === e.intentId || !record.planJson) continue;
    const plan = decodePlan(record.planJson);
    const o = plan.origin.intent;
    const chain = e.chains.find((c) => BigInt(c.chainId) === o.chainId);
    if (!chain) continue;
    for (const option of plan.gasFeeOptions.feeOptions) {
      const fields: TrailsIntentFields = {
        ...e.expected,
        chainId: o.chainId,
        entrypoint: chain.contracts.intentFactory,
        token: o.depositToken,
        amount: o.depositAmount,
        intentAddress: plan.origin.address,
        feeAmount: option.amount,
        feeCollector: plan.gasFeeOptions.feeCollectorAddress,
      };
      if (await tries(fields)) return record.intentId;
    }
  }
  return undefined;
}
