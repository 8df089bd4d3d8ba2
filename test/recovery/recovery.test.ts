/**
 * Self-serve recovery and RetryIntent on the devnet, through HTTP in both dialects (/rpc/Trails with the
 * reference's names, /rpc/Service with the neutral ones; plain fetch: the official client 0.9.4 has no such
 * methods). The owner signs the typed data PrepareIntentRecovery answers with their wallet (anvil's
 * eth_signTypedData_v4, the JSON as answered), and someone else sends the transaction
 * BuildIntentRecoveryTransaction answers, or the relayer sends it (RelayIntentRecovery). Real devnet, real
 * engine, real API on a port, SQLite. Balances are read on-chain.
 */
import { TrailsApi } from '@0xtrails/api';
import { type Address, erc20Abi, type Hex, type PublicClient, parseUnits } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dialect } from '../../src/api/dialect.ts';
import { readAccountState } from '../../src/engine/chain-reads.ts';
import { decodePlan } from '../../src/intents/plan-codec.ts';
import {
  createAddressBalances,
  type ReadAddressBalances,
} from '../../src/intents/recovery/address-balances.ts';
import { loadIntent } from '../../src/intents/recovery/intent-accounts.ts';
import { readRecoverableBalances } from '../../src/intents/recovery/recoverable-balances.ts';
import { FAST_ENGINE_OPTIONS, startTestSwitchyard, type TestSwitchyard } from '../harness/app.ts';
import type { TestDevnetChain } from '../harness/devnet.ts';

const usdc = (n: string) => parseUnits(n, 6);
/** Refund steps re-read a warped chain clock this often (ms); late deposits keep production's 5 minutes. */
const REFUND_RECHECK_MS = 100;
/** One intent on the devnet takes a few seconds; this leaves room on a loaded 2-core machine. */
const TEST_TIMEOUT_MS = 90_000;
/** The engine fails a deposit still short this close to the origin deadline (SHORT_DEPOSIT_RETRY_WINDOW_SECONDS). */
const INTO_RETRY_WINDOW_SECONDS = 200n;

// biome-ignore lint/suspicious/noExplicitAny: the answers are read as untyped JSON on purpose
type Json = Record<string, any>;

let app: TestSwitchyard;
let alpha: TestDevnetChain;
let beta: TestDevnetChain;
let user: Address;
/** Seconds every chain was warped: the services' clock follows, so quotes are made in chain time. */
let skewSeconds = 0n;

beforeAll(async () => {
  app = await startTestSwitchyard({
    engineOptions: {
      ...FAST_ENGINE_OPTIONS,
      refundTiming: { recheckMaxMs: REFUND_RECHECK_MS },
    },
    intentServices: { now: () => new Date(Date.now() + Number(skewSeconds) * 1000) },
    rateLimit: false,
  });
  [alpha, beta] = app.net.chains as [TestDevnetChain, TestDevnetChain];
  user = app.net.devnet.accounts.user.address;
}, 120_000);
afterAll(async () => {
  await app?.stop();
});

async function call(
  dialect: Dialect,
  method: string,
  body: unknown,
): Promise<{ status: number; json: Json }> {
  const response = await fetch(`${app.url}/rpc/${dialect}/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': app.key },
    body: JSON.stringify(body, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
  });
  return { status: response.status, json: (await response.json()) as Json };
}

async function ok(dialect: Dialect, method: string, body: unknown): Promise<Json> {
  const { status, json } = await call(dialect, method, body);
  expect({ method, status, json: status === 200 ? undefined : json }).toEqual({
    method,
    status: 200,
    json: undefined,
  });
  return json;
}

/** The refusal's webrpc name and message. */
async function refused(dialect: Dialect, method: string, body: unknown): Promise<Json> {
  const { status, json } = await call(dialect, method, body);
  expect(status, JSON.stringify(json)).not.toBe(200);
  return json;
}

const usdcOf = (chain: TestDevnetChain) => chain.entry.tokens.USDC as Address;

function balance(chain: TestDevnetChain, token: Address, holder: Address): Promise<bigint> {
  return chain.publicClient.readContract({
    address: token,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [holder],
  });
}

async function transfer(chain: TestDevnetChain, to: Address, amount: bigint): Promise<Hex> {
  const hash = await chain.walletFor('user').writeContract({
    address: usdcOf(chain),
    abi: erc20Abi,
    functionName: 'transfer',
    args: [to, amount],
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

/** The owner's wallet signs the typed data exactly as answered (eth_signTypedData_v4 on the chain's node). */
async function ownerSigns(chain: TestDevnetChain, typedData: unknown): Promise<Hex> {
  const response = await fetch(chain.entry.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'eth_signTypedData_v4',
      params: [user, JSON.stringify(typedData)],
    }),
  });
  const { result, error } = (await response.json()) as { result?: Hex; error?: unknown };
  if (!result) throw new Error(`the wallet refused to sign: ${JSON.stringify(error)}`);
  return result;
}

/** Someone other than the owner (the devnet's deployer) sends the transaction as answered. */
async function strangerSends(chain: TestDevnetChain, tx: Json): Promise<Hex> {
  const hash = await chain.walletFor('deployer').sendTransaction({
    to: tx.to as Address,
    data: tx.data as Hex,
    value: BigInt(tx.value),
  });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  expect(receipt.status).toBe('success');
  return hash;
}

async function warp(seconds: bigint): Promise<void> {
  for (const chain of app.net.chains) {
    await chain.testClient.increaseTime({ seconds: Number(seconds) });
    await chain.testClient.mine({ blocks: 1 });
  }
  skewSeconds += seconds;
}

const chainNow = async (chain: TestDevnetChain) => (await chain.publicClient.getBlock()).timestamp;

async function quote(
  dialect: Dialect,
  to: TestDevnetChain,
  amount: bigint,
  recipient: Address,
  owner: Address = user,
): Promise<Json> {
  const { intent } = await ok(dialect, 'QuoteIntent', {
    ownerAddress: owner,
    originChainId: alpha.entry.chainId,
    originTokenAddress: usdcOf(alpha),
    destinationChainId: to.entry.chainId,
    destinationTokenAddress: usdcOf(to),
    destinationToAddress: recipient,
    originTokenAmount: amount,
    tradeType: 'EXACT_INPUT',
  });
  return intent;
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + TEST_TIMEOUT_MS - 10_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const statusOf = async (intentId: string) =>
  (await app.store.intents.get({ projectId: app.projectId, intentId }))?.status;
const rowsOf = async (intentId: string) =>
  Object.fromEntries((await app.store.transactions.list(intentId)).map((r) => [r.kind, r]));

/** Prepare → the owner signs → Build: the transaction anyone can send, with what was prepared. */
async function prepareAndBuild(
  dialect: Dialect,
  chain: TestDevnetChain,
  request: Json,
): Promise<{ prepared: Json; tx: Json; signature: Hex }> {
  const prepared = await ok(dialect, 'PrepareIntentRecovery', request);
  expect(prepared.chainId).toBe(chain.entry.chainId);
  const signature = await ownerSigns(chain, prepared.typedData);
  const tx = await ok(dialect, 'BuildIntentRecoveryTransaction', {
    intentId: request.intentId,
    payload: prepared.payload,
    signature,
    intentAddress: prepared.intentAddress,
  });
  expect(tx.chainId).toBe(chain.entry.chainId);
  expect(tx.payloadHash).toBe(prepared.payloadHash);
  expect(tx.value).toBe('0');
  return { prepared, tx, signature };
}

describe.each(['Trails', 'Service'] as const)('recovery on /rpc/%s', (dialect) => {
  it(
    'a USDC deposit to an intent address on the wrong chain goes back to the owner in a transaction someone else sends',
    async () => {
      const intent = await quote(dialect, beta, usdc('30'), user);
      await ok(dialect, 'CommitIntent', { intent });
      const address = intent.originIntentAddress as Address;
      const stray = usdc('12.5');
      await transfer(beta, address, stray);
      const ownerBefore = await balance(beta, usdcOf(beta), user);
      const strangerBefore = await balance(beta, usdcOf(beta), app.net.devnet.accounts.deployer!.address);

      const { prepared, tx } = await prepareAndBuild(dialect, beta, { intentId: intent.intentId });
      expect(prepared.intentAddress.toLowerCase()).toBe(address.toLowerCase());
      expect(prepared.intentSource).toBe('origin');
      expect(prepared.intentProtocol).toBe('v1');
      expect(prepared.recoveryTokens[0]).toMatchObject({
        contractAddress: usdcOf(beta),
        balance: stray.toString(),
        decimals: 6,
        chainId: beta.entry.chainId,
        symbol: 'USDC',
      });
      expect(prepared.payload.cancelIntent).toBe(false);
      expect(prepared.payload.recipient.toLowerCase()).toBe(user.toLowerCase());
      expect(tx.requiresDeploy).toBe(true);
      expect(tx.to).toBe(beta.entry.contracts.intentFactory);

      await strangerSends(beta, tx);
      expect(await balance(beta, usdcOf(beta), user)).toBe(ownerBefore + stray);
      expect(await balance(beta, usdcOf(beta), address)).toBe(0n);
      expect(await balance(beta, usdcOf(beta), app.net.devnet.accounts.deployer!.address)).toBe(
        strangerBefore,
      );
      // The intent itself, on its own chain, is untouched.
      expect(await statusOf(intent.intentId)).toBe('COMMITTED');

      // Sent again, the same signature is refused before anything is answered.
      const again = await refused(dialect, 'BuildIntentRecoveryTransaction', {
        intentId: intent.intentId,
        payload: prepared.payload,
        signature: await ownerSigns(beta, prepared.typedData),
        intentAddress: prepared.intentAddress,
      });
      expect(again.error).toBe('InvalidArgument');
      expect(again.message).toMatch(/^payload\.nonce: this signed recovery was already sent/);
      const nothing = await refused(dialect, 'PrepareIntentRecovery', { intentId: intent.intentId });
      expect(nothing.error).toBe('NotFound');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a deposit to an intent never committed is recovered before the engine would return it, and the two never both pay',
    async () => {
      const intent = await quote(dialect, alpha, usdc('20'), user);
      const address = intent.originIntentAddress as Address;
      const amount = usdc('20');
      const ownerBefore = await balance(alpha, usdcOf(alpha), user);
      await transfer(alpha, address, amount);
      // The engine has seen it and will return it after the origin deadline.
      await until(
        () => rowsOf(intent.intentId),
        (rows) => rows.deposit?.status === 'PENDING',
        'the deposit note',
      );

      const { prepared, tx } = await prepareAndBuild(dialect, alpha, {
        intentId: intent.intentId,
        tokenAddress: usdcOf(alpha),
      });
      // Its own deposit at an account that could still execute: the signed recovery cancels the intent first.
      expect(prepared.payload.cancelIntent).toBe(true);
      expect(prepared.typedData.message.cancelIntent).toBe(true);
      const hash = await strangerSends(alpha, tx);
      expect(await balance(alpha, usdcOf(alpha), user)).toBe(ownerBefore);

      // Past the deadline the engine finds the account cancelled and empty: it records the owner's
      // transaction and sends nothing.
      await warp(await secondsPastDeadline(intent));
      const status = await until(
        () => statusOf(intent.intentId),
        (s) => s === 'ABORTED',
        'ABORTED',
      );
      expect(status).toBe('ABORTED');
      const rows = await rowsOf(intent.intentId);
      expect(rows.refund?.txnHash).toBe(hash);
      expect(rows.refund?.tokenAmount).toBe(amount);
      const signed = await app.store.signedTransactions.listForIntent(intent.intentId);
      expect(signed).toEqual([]);
      expect(await balance(alpha, usdcOf(alpha), user)).toBe(ownerBefore);
      expect(await balance(alpha, usdcOf(alpha), address)).toBe(0n);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a second deposit after SUCCEEDED is recovered the same way, or by the relayer for a fee out of it',
    async () => {
      const recipient = app.net.devnet.accounts.feeCollector!.address;
      const intent = await quote(dialect, alpha, usdc('15'), recipient);
      await ok(dialect, 'CommitIntent', { intent });
      const address = intent.originIntentAddress as Address;
      const depositHash = await transfer(alpha, address, BigInt(intent.depositTransaction.amount));
      await ok(dialect, 'ExecuteIntent', { intentId: intent.intentId, depositTransactionHash: depositHash });
      await until(
        () => statusOf(intent.intentId),
        (s) => s === 'SUCCEEDED',
        'SUCCEEDED',
      );
      // The engine returns late deposits too, looking every 5 minutes: the deposits below come right after
      // one of its looks, so the owner's recoveries are not racing it.
      await until(
        () => app.store.steps.list(intent.intentId),
        (steps) => steps.some((s) => s.step === 'origin-refund' && /late deposits/.test(s.lastError ?? '')),
        'the engine watching for late deposits',
      );

      // Someone else sends the owner's recovery of a second deposit.
      await transfer(alpha, address, usdc('7'));
      const ownerBefore = await balance(alpha, usdcOf(alpha), user);
      const { prepared, tx } = await prepareAndBuild(dialect, alpha, { intentId: intent.intentId });
      expect(prepared.payload.cancelIntent).toBe(false);
      expect(tx.requiresDeploy).toBe(false);
      expect(tx.to.toLowerCase()).toBe(address.toLowerCase());
      await strangerSends(alpha, tx);
      expect(await balance(alpha, usdcOf(alpha), user)).toBe(ownerBefore + usdc('7'));

      // A third one, gasless: the relayer sends it and keeps the fee the owner signed, out of the amount.
      await transfer(alpha, address, usdc('9'));
      const relayer = app.net.devnet.accounts.relayer!.address;
      const [ownerThen, relayerThen] = [
        await balance(alpha, usdcOf(alpha), user),
        await balance(alpha, usdcOf(alpha), relayer),
      ];
      const gasless = await ok(dialect, 'PrepareIntentRecovery', { intentId: intent.intentId });
      const fee = BigInt(gasless.payload.maxFee);
      expect(fee).toBeGreaterThan(0n);
      expect(fee).toBeLessThan(usdc('9'));
      const relayed = await ok(dialect, 'RelayIntentRecovery', {
        intentId: intent.intentId,
        payload: gasless.payload,
        signature: await ownerSigns(alpha, gasless.typedData),
        intentAddress: gasless.intentAddress,
      });
      expect(relayed).toMatchObject({ transactionStatus: 'SUCCEEDED', fee: fee.toString() });
      const receipt = await alpha.publicClient.getTransactionReceipt({ hash: relayed.transactionHash });
      expect(receipt.from.toLowerCase()).toBe(relayer.toLowerCase());
      expect(await balance(alpha, usdcOf(alpha), user)).toBe(ownerThen + usdc('9') - fee);
      expect(await balance(alpha, usdcOf(alpha), relayer)).toBe(relayerThen + fee);
      expect(await balance(alpha, usdcOf(alpha), address)).toBe(0n);
      expect(await statusOf(intent.intentId)).toBe('SUCCEEDED');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'refuses with named errors: a forged signature, an address that is not the intent’s, a recipient other than the signed one, a running intent’s deposit',
    async () => {
      const intent = await quote(dialect, alpha, usdc('10'), user);
      await ok(dialect, 'CommitIntent', { intent });
      const address = intent.originIntentAddress as Address;
      await transfer(alpha, address, usdc('10'));
      // Committed, and its deposit is there: the service may run it, so nothing is recoverable.
      const running = await refused(dialect, 'PrepareIntentRecovery', {
        intentId: intent.intentId,
        tokenAddress: usdcOf(alpha),
      });
      expect(running.error).toBe('NotFound');
      expect(running.message).toMatch(/is this intent's deposit and it may still run/);

      await transfer(beta, address, usdc('3'));
      const prepared = await ok(dialect, 'PrepareIntentRecovery', { intentId: intent.intentId });
      const forged = await beta.walletFor('deployer').signTypedData({
        domain: { ...prepared.typedData.domain },
        types: { Recovery: prepared.typedData.types.Recovery },
        primaryType: 'Recovery',
        message: {
          ...prepared.typedData.message,
          maxFee: BigInt(prepared.payload.maxFee),
          nonce: BigInt(prepared.payload.nonce),
          deadline: BigInt(prepared.payload.deadline),
        },
      });
      const build = (over: Json) =>
        refused(dialect, 'BuildIntentRecoveryTransaction', {
          intentId: intent.intentId,
          payload: prepared.payload,
          signature: forged,
          intentAddress: prepared.intentAddress,
          ...over,
        });
      const badSignature = await build({});
      expect(badSignature.error).toBe('InvalidArgument');
      expect(badSignature.message).toMatch(
        new RegExp(
          `^signature: is not the intent owner ${user}'s signature over this payload \\(it recovers`,
          'i',
        ),
      );
      const signature = await ownerSigns(beta, prepared.typedData);
      const otherAddress = await build({
        signature,
        intentAddress: app.net.devnet.accounts.deployer!.address,
      });
      expect(otherAddress.error).toBe('InvalidArgument');
      expect(otherAddress.message).toMatch(/^intentAddress: .* is not an address of intent/);
      const otherRecipient = await build({
        signature,
        refundToAddress: app.net.devnet.accounts.deployer!.address,
      });
      expect(otherRecipient.message).toMatch(/^refundToAddress: .*the signed payload sends to/);
      const changed = await build({
        signature,
        payload: { ...prepared.payload, recipient: relayerAddress() },
      });
      expect(changed.message).toMatch(/^signature: is not the intent owner/);
      for (const junk of ['0x1234', `0x${'00'.repeat(65)}`]) {
        const notASignature = await build({ signature: junk });
        expect(notASignature.error).toBe('InvalidArgument');
        expect(notASignature.message).toMatch(/^signature: is not the intent owner/);
      }
      const badPayload = await build({ signature, payload: { ...prepared.payload, nonce: 'one' } });
      expect(badPayload.message).toBe(
        'payload.nonce: must be an unsigned 256-bit integer as a decimal string',
      );
      const unknown = await refused(dialect, 'PrepareIntentRecovery', { intentId: `0x${'ab'.repeat(32)}` });
      expect(unknown.error).toBe('NotFound');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a short deposit leaves the intent FAILED; a top-up and RetryIntent make it SUCCEEDED',
    async () => {
      const recipient = app.net.devnet.accounts.feeCollector!.address;
      const intent = await quote(dialect, beta, usdc('25'), recipient);
      await ok(dialect, 'CommitIntent', { intent });
      const address = intent.originIntentAddress as Address;
      const required = BigInt(intent.depositTransaction.amount);
      const short = await transfer(alpha, address, required - usdc('1'));
      const executed = await ok(dialect, 'ExecuteIntent', {
        intentId: intent.intentId,
        depositTransactionHash: short,
      });
      expect(executed.intentStatus).toBe('EXECUTING');
      const notFailed = await refused(dialect, 'RetryIntent', {
        intentId: intent.intentId,
        depositTransactionHash: short,
      });
      expect(notFailed.error).toBe('IntentStatus');
      expect(notFailed.message).toMatch(/is EXECUTING: RetryIntent runs only a FAILED intent again/);

      // Into the last minutes before the origin deadline, still short: FAILED, and the receipt says what to do.
      await warp((await secondsPastDeadline(intent)) - INTO_RETRY_WINDOW_SECONDS);
      await until(
        () => statusOf(intent.intentId),
        (s) => s === 'FAILED',
        'FAILED',
      );
      const failedRows = await rowsOf(intent.intentId);
      expect(failedRows.deposit?.status).toBe('FAILED');
      expect(failedRows.deposit?.statusReason).toMatch(
        /^the deposit is short: 24(\.\d+)? USDC arrived.*call RetryIntent/,
      );

      const stillShort = await refused(dialect, 'RetryIntent', {
        intentId: intent.intentId,
        depositTransactionHash: short,
      });
      expect(stillShort.error).toBe('InvalidArgument');
      expect(stillShort.message).toMatch(
        /^depositTransactionHash: after it the intent address .* holds \d+ of the \d+ required/,
      );
      const elsewhere = await transfer(alpha, recipient, 1n);
      const foreign = await refused(dialect, 'RetryIntent', {
        intentId: intent.intentId,
        depositTransactionHash: elsewhere,
      });
      expect(foreign.error).toBe('InvalidArgument');
      expect(foreign.message).toMatch(
        /^depositTransactionHash: transaction 0x[0-9a-f]+ pays the intent address .* nothing of token/,
      );

      const recipientBefore = await balance(beta, usdcOf(beta), recipient);
      const topUp = await transfer(alpha, address, usdc('1'));
      const retried = await ok(dialect, 'RetryIntent', {
        intentId: intent.intentId,
        depositTransactionHash: topUp,
      });
      expect(retried).toEqual({ intentId: intent.intentId, intentStatus: 'EXECUTING' });
      await until(
        () => statusOf(intent.intentId),
        (s) => s === 'SUCCEEDED',
        'SUCCEEDED',
      );
      expect(await balance(beta, usdcOf(beta), recipient)).toBeGreaterThanOrEqual(
        recipientBefore + BigInt(intent.quote.toAmountMin),
      );
      expect(await balance(alpha, usdcOf(alpha), address)).toBe(0n);
      const rows = await rowsOf(intent.intentId);
      expect(rows.deposit?.status).toBe('SUCCEEDED');
      expect(rows.deposit?.txnHash).toBe(topUp);

      const over = await refused(dialect, 'RetryIntent', {
        intentId: intent.intentId,
        depositTransactionHash: topUp,
      });
      expect(over.error).toBe('IntentStatus');
      expect(over.cause).toBe('intent status=SUCCEEDED');
    },
    TEST_TIMEOUT_MS,
  );
});

function relayerAddress(): Address {
  return app.net.devnet.accounts.relayer!.address;
}

/** Seconds to warp every chain so alpha's clock is just past the intent's origin deadline. */
async function secondsPastDeadline(intent: Json): Promise<bigint> {
  const record = await app.store.intents.get({ projectId: app.projectId, intentId: intent.intentId });
  const deadline = decodePlan(record!.planJson!).origin.intent.deadline;
  return deadline - (await chainNow(alpha)) + 2n;
}

describe('the balances PrepareIntentRecovery offers, read while the intent executes', () => {
  it(
    'a deposit its intent takes between the reads is never offered: the account is read before its balances',
    async () => {
      const intent = await quote('Service', alpha, usdc('10'), user);
      await ok('Service', 'CommitIntent', { intent });
      const address = intent.originIntentAddress as Address;
      const loaded = await loadIntent({ store: app.store }, app.projectId, intent.intentId);
      const clients = new Map(
        app.net.chains.map((c) => [c.entry.chainId, c.publicClient as unknown as PublicClient]),
      );
      const readBalances = createAddressBalances({ chains: app.net.chainConfigs, clients });
      await transfer(alpha, address, usdc('10'));
      // The balances are read at once and handed back only once the engine has executed the account: the
      // slowest interleaving of the reads with the execution.
      const heldUntilExecuted: ReadAddressBalances = async (holders, extraToken) => {
        const found = await readBalances(holders, extraToken);
        await until(
          () => readAccountState(clients.get(alpha.entry.chainId)!, address),
          (state) => state === 'executed',
          'the intent account to execute',
        );
        return found;
      };
      const { recoverable } = await readRecoverableBalances(
        { clients, readBalances: heldUntilExecuted },
        loaded,
        loaded.accounts,
      );
      expect(recoverable.filter((b) => b.chainId === alpha.entry.chainId)).toEqual([]);
      expect(await balance(alpha, usdcOf(alpha), address)).toBe(0n);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('AbortIntent after a recovery that cancelled the intent', () => {
  it(
    'records what the recovery returned in the refund row, when the official client reports it as the client does',
    async () => {
      const intent = await quote('Trails', alpha, usdc('14'), user);
      const address = intent.originIntentAddress as Address;
      const amount = usdc('14');
      const ownerBefore = await balance(alpha, usdcOf(alpha), user);
      await transfer(alpha, address, amount);
      const { prepared, tx } = await prepareAndBuild('Trails', alpha, {
        intentId: intent.intentId,
        tokenAddress: usdcOf(alpha),
      });
      expect(prepared.payload.cancelIntent).toBe(true);
      const hash = await strangerSends(alpha, tx);
      expect(await balance(alpha, usdcOf(alpha), user)).toBe(ownerBefore);

      // After a recovery the client calls AbortIntent with the recovery's chain and transaction.
      const client = new TrailsApi(app.key, { hostname: app.url });
      const aborted = await client.abortIntent({
        intentId: intent.intentId,
        chainId: alpha.entry.chainId,
        abortTransactionHash: hash,
      });
      expect(aborted.status).toBe('ABORTED');
      const { intentReceipt } = await client.getIntentReceipt({ intentId: intent.intentId });
      // The 0.9.4 client's receipt type predates refundTransaction; the answer carries it.
      const refund = (intentReceipt as unknown as { refundTransaction?: Json }).refundTransaction;
      expect(refund).toMatchObject({
        txnHash: hash,
        chainId: alpha.entry.chainId,
        tokenAddress: usdcOf(alpha).toLowerCase(),
        toAddress: user.toLowerCase(),
        status: 'SUCCEEDED',
      });
      expect(BigInt(refund!.tokenAmount)).toBe(amount);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('GetIntentHistory onlyRecoverable', () => {
  it(
    'leaves out a running intent’s own deposit, and lists the intent once USDC lands at its address on another chain',
    async () => {
      // An owner of its own: this intent is never finished, and the origin refund that returns its deposit
      // after a later test's clock warp must not move the user's balance that test checks.
      const owner = privateKeyToAccount(generatePrivateKey()).address;
      const intent = await quote('Trails', alpha, usdc('11'), owner, owner);
      await ok('Trails', 'CommitIntent', { intent });
      const address = intent.originIntentAddress as Address;
      // Short of what it needs, the deposit stays at the address while the service waits for the rest.
      await transfer(alpha, address, BigInt(intent.depositTransaction.amount) - usdc('1'));
      const client = new TrailsApi(app.key, { hostname: app.url });
      type Entry = { intentId: string; hasBalance?: boolean; balances?: Json[] };
      const find = async (flags: Json) => {
        const request = { byOwnerAddress: owner, page: { pageSize: 10 }, ...flags };
        const { intents } = await client.getIntentHistory(request as never);
        return (intents as Entry[]).find((e) => e.intentId === intent.intentId);
      };
      // Its deposit in place and the service may still run it: nothing is stranded.
      expect(['COMMITTED', 'EXECUTING']).toContain(await statusOf(intent.intentId));
      const held = await find({ includeBalances: true });
      expect(held?.hasBalance).toBe(true);
      expect(await find({ onlyRecoverable: true })).toBeUndefined();

      await transfer(beta, address, usdc('2'));
      const listed = await find({ onlyRecoverable: true });
      const onBeta = listed?.balances?.find((b) => b.chainId === beta.entry.chainId);
      expect(onBeta).toEqual({
        intentAddress: address.toLowerCase(),
        chainId: beta.entry.chainId,
        tokens: [expect.objectContaining({ symbol: 'USDC', balance: usdc('2').toString() })],
      });
      // PrepareIntentRecovery offers the same balance.
      const prepared = await ok('Trails', 'PrepareIntentRecovery', { intentId: intent.intentId });
      expect(prepared.chainId).toBe(beta.entry.chainId);
      expect(prepared.recoveryTokens).toEqual([
        expect.objectContaining({ chainId: beta.entry.chainId, balance: usdc('2').toString() }),
      ]);
    },
    TEST_TIMEOUT_MS,
  );
});

describe('a short deposit never topped up', () => {
  it(
    'stays FAILED, is returned after the origin deadline, and can no longer be retried',
    async () => {
      const intent = await quote('Trails', alpha, usdc('18'), user);
      await ok('Trails', 'CommitIntent', { intent });
      const address = intent.originIntentAddress as Address;
      const ownerBefore = await balance(alpha, usdcOf(alpha), user);
      const short = await transfer(alpha, address, BigInt(intent.depositTransaction.amount) - 1n);
      await ok('Trails', 'ExecuteIntent', { intentId: intent.intentId, depositTransactionHash: short });
      await warp((await secondsPastDeadline(intent)) - INTO_RETRY_WINDOW_SECONDS);
      await until(
        () => statusOf(intent.intentId),
        (s) => s === 'FAILED',
        'FAILED',
      );

      await warp(await secondsPastDeadline(intent));
      const rows = await until(
        () => rowsOf(intent.intentId),
        (r) => r.refund?.status === 'SUCCEEDED',
        'the refund',
      );
      expect(rows.refund?.statusReason).toMatch(/^returned 17\.99\d* USDC to the owner on Switchyard Alpha/);
      expect(await balance(alpha, usdcOf(alpha), user)).toBe(ownerBefore);
      expect(await statusOf(intent.intentId)).toBe('FAILED');

      const topUp = await transfer(alpha, address, usdc('18'));
      const closed = await refused('Service', 'RetryIntent', {
        intentId: intent.intentId,
        depositTransactionHash: topUp,
      });
      expect(closed.error).toBe('QuoteExpired');
      expect(closed.message).toMatch(/cannot run again: its origin deadline \(chain time \d+\) has passed/);
    },
    TEST_TIMEOUT_MS,
  );
});
