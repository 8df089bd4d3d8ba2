/**
 * Submits an intent with one chain's mempool held from before the deposit: automine off on `held`, then the
 * deposit (mined by the test if it lands on `held`), then ExecuteIntent. Nothing the service sends on `held`
 * is mined until the test mines, even if the deposit watcher starts the intent as soon as the deposit lands
 * (turning automine off after the deposit raced it: chain-restart.test.ts fixed the same race this way).
 */
import type { QuoteIntentRequest } from '@0xtrails/api';
import type { Address, Hex } from 'viem';
import type { TestDevnetChain } from '../../harness/devnet.ts';
import { executeIntent, type SubmittedIntent, whileDown } from './intents.ts';
import type { ResilienceSuite } from './suite.ts';

export async function submitHeld(
  suite: ResilienceSuite,
  held: TestDevnetChain,
  request: QuoteIntentRequest,
): Promise<SubmittedIntent> {
  const { svc } = suite;
  const { intent } = await whileDown(() => svc.api().quoteIntent(request));
  await whileDown(() => svc.api().commitIntent({ intent }));
  const origin = svc.chain(request.originChainId);
  const raw = intent.depositTransaction as unknown as { to: Address; data: Hex; value?: string | number };
  await held.testClient.setAutomine(false);
  const depositHash = await suite.queue(origin.entry.chainId, async () => {
    const hash = await origin
      .walletFor('user')
      .sendTransaction({ to: raw.to, data: raw.data, value: BigInt(raw.value ?? 0) });
    if (origin.entry.chainId === held.entry.chainId) await held.testClient.mine({ blocks: 1 });
    await origin.publicClient.waitForTransactionReceipt({ hash });
    return hash;
  });
  suite.created.push(intent.originIntentAddress as Address, intent.destinationIntentAddress as Address);
  await executeIntent(svc, intent.intentId, depositHash);
  return { intentId: intent.intentId, intent, depositHash };
}
