/**
 * An intent driven through the official client the way a wallet does it, in steps a browser test can
 * interleave with what it looks at: quote and commit, the user's deposit as `depositTransaction` says,
 * ExecuteIntent, and a wait for a receipt that satisfies a condition.
 */
import type { Intent, IntentReceipt, QuoteIntentRequest, TrailsApi } from '@0xtrails/api';
import type { Address, Hex } from 'viem';
import type { TestDevnetChain } from '../../harness/devnet.ts';

/** How long a test waits for the engine to reach a state on the devnet (ms); a loaded machine needs slack. */
const RECEIPT_WAIT_MS = 60_000;
const RECEIPT_POLL_MS = 100;

/** The raw transaction fields the server puts beside the client's typed DepositTransaction members. */
interface RawDeposit {
  to: Address;
  data: Hex;
  value?: string | number | bigint;
}

export async function quoteAndCommit(api: TrailsApi, request: QuoteIntentRequest): Promise<Intent> {
  const { intent } = await api.quoteIntent(request);
  await api.commitIntent({ intent });
  return intent;
}

/** Sends the user's deposit, waits for it to be mined, and names it in ExecuteIntent. */
export async function depositAndExecute(
  api: TrailsApi,
  origin: TestDevnetChain,
  intent: Intent,
): Promise<Hex> {
  const raw = intent.depositTransaction as unknown as RawDeposit;
  const hash = await origin
    .walletFor('user')
    .sendTransaction({ to: raw.to, data: raw.data, value: BigInt(raw.value ?? 0) });
  await origin.publicClient.waitForTransactionReceipt({ hash });
  await api.executeIntent({ intentId: intent.intentId, depositTransactionHash: hash });
  return hash;
}

export async function waitForReceipt(
  api: TrailsApi,
  intentId: string,
  ready: (receipt: IntentReceipt) => boolean,
): Promise<IntentReceipt> {
  const until = Date.now() + RECEIPT_WAIT_MS;
  for (;;) {
    const { intentReceipt } = await api.getIntentReceipt({ intentId });
    if (ready(intentReceipt)) return intentReceipt;
    if (Date.now() > until)
      throw new Error(
        `intent ${intentId} did not get there: ${JSON.stringify(intentReceipt.summary.status)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
  }
}
