/**
 * `npm run demo`: with `npm start` running, swaps and bridges 100 USDC on the first devnet chain into DAI on
 * the second through the official client (@0xtrails/api), as the devnet's demo user. Prints every step: the
 * quote (amounts, fees, price impact), the commit, the deposit transaction, ExecuteIntent, each change of
 * the receipt states with its transaction hashes, the final receipt, and the user's balances before and after
 * on both chains. Exits 0 when the intent SUCCEEDED.
 *
 * `--recover` shows the self-serve recovery of stranded funds instead (scripts/demo-recover.ts).
 *
 * Where the devnet is: `--data-dir DIR` or $SWITCHYARD_DATA_DIR (as for `switchyard start`), default
 * ./.switchyard; its devnet.json holds the API URL, the access key, the chains and the demo user's key.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Intent, type IntentReceipt, TrailsApi, type TransactionStatus } from '@0xtrails/api';
import { type Address, erc20Abi, formatUnits, type Hex, parseUnits } from 'viem';
import { toLocalAccount } from '../src/devnet/accounts.ts';
import {
  createDevnetPublicClient,
  createDevnetWalletClient,
  type DevnetPublicClient,
  devnetChain,
} from '../src/devnet/chain-clients.ts';
import { DEFAULT_DATA_DIR, DEVNET_TOKEN_INFO } from '../src/devnet/constants.ts';
import { type DevnetChainEntry, type DevnetFile, readDevnetFile } from '../src/devnet/devnet-file.ts';
import { runRecoveryDemo } from './demo-recover.ts';

/** What the demo sells, in whole tokens: big enough to show fees as a small share, small for the pools. */
const DEMO_AMOUNT = '100';
const FROM_SYMBOL = 'USDC';
const TO_SYMBOL = 'DAI';

const print = (line = '') => process.stdout.write(`${line}\n`);

interface Side {
  entry: DevnetChainEntry;
  client: DevnetPublicClient;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' }, recover: { type: 'boolean' } },
  });
  const dataDir = path.resolve(values['data-dir'] ?? process.env.SWITCHYARD_DATA_DIR ?? DEFAULT_DATA_DIR);
  const devnet = await readDevnetFile(dataDir);
  if (!devnet.accessKey) {
    process.stderr.write(`demo: ${dataDir}/devnet.json has no access key yet: is \`npm start\` running?\n`);
    return 1;
  }
  if (values.recover) return runRecoveryDemo(devnet);
  const [alphaEntry, betaEntry] = devnet.chains;
  if (!alphaEntry || !betaEntry) throw new Error('demo: devnet.json lists fewer than two chains');
  const alpha = side(alphaEntry);
  const beta = side(betaEntry);
  const user = devnet.accounts.user.address;
  const api = new TrailsApi(devnet.accessKey, { hostname: devnet.apiUrl });

  print(
    `Switchyard demo: ${DEMO_AMOUNT} ${FROM_SYMBOL} on ${alpha.entry.name} → ${TO_SYMBOL} on ${beta.entry.name}`,
  );
  print(`API ${devnet.apiUrl}, demo user ${user}`);
  const before = await balances(alpha, beta, user);
  printBalances('balances before', before);

  print('\n1. QuoteIntent');
  const { intent } = await api.quoteIntent({
    ownerAddress: user,
    originChainId: alpha.entry.chainId,
    originTokenAddress: token(alpha.entry, FROM_SYMBOL),
    originTokenAmount: parseUnits(DEMO_AMOUNT, decimals(FROM_SYMBOL)),
    destinationChainId: beta.entry.chainId,
    destinationTokenAddress: token(beta.entry, TO_SYMBOL),
    destinationToAddress: user,
    destinationTokenAmount: 0n,
    tradeType: 'EXACT_INPUT' as never,
  });
  printQuote(intent);

  print('\n2. CommitIntent');
  const { intentId } = await api.commitIntent({ intent });
  print(`   committed ${intentId}`);

  print('\n3. Deposit (the user sends exactly what intent.depositTransaction says)');
  const depositHash = await sendDeposit(devnet, alpha, intent);
  print(`   deposit tx ${depositHash} on ${alpha.entry.name}`);

  print('\n4. ExecuteIntent');
  const executed = await api.executeIntent({ intentId, depositTransactionHash: depositHash });
  print(`   intent status ${executed.intentStatus}`);

  print('\n5. WaitIntentReceipt (long poll; one line per change of the receipt states)');
  const receipt = await follow(api, intentId);

  print('\n6. Final receipt');
  printReceipt(receipt);
  const after = await balances(alpha, beta, user);
  printBalances('balances after', after, before);
  return receipt.status === 'SUCCEEDED' ? 0 : 1;
}

function side(entry: DevnetChainEntry): Side {
  return { entry, client: createDevnetPublicClient(devnetChain(entry.chainId, entry.name, entry.rpcUrl)) };
}

function token(entry: DevnetChainEntry, symbol: string): Address {
  const address = entry.tokens[symbol];
  if (!address) throw new Error(`demo: ${entry.name} has no ${symbol}`);
  return address;
}

const decimals = (symbol: string): number => DEVNET_TOKEN_INFO[symbol]?.decimals ?? 18;

async function sendDeposit(devnet: DevnetFile, origin: Side, intent: Intent): Promise<Hex> {
  const raw = intent.depositTransaction as unknown as { to: Address; data: Hex; value?: string };
  const chain = devnetChain(origin.entry.chainId, origin.entry.name, origin.entry.rpcUrl);
  const wallet = createDevnetWalletClient(chain, toLocalAccount(devnet.accounts.user));
  const hash = await wallet.sendTransaction({ to: raw.to, data: raw.data, value: BigInt(raw.value ?? 0) });
  const mined = await origin.client.waitForTransactionReceipt({ hash });
  print(`   mined in block ${mined.blockNumber} (${mined.status})`);
  return hash;
}

/** Waits with lastReceiptStates until done, printing each new set of states and the hashes known so far. */
async function follow(api: TrailsApi, intentId: string): Promise<IntentReceipt> {
  let last: TransactionStatus[] | undefined;
  const started = Date.now();
  for (;;) {
    const answer = await api.waitIntentReceipt({ intentId, lastReceiptStates: last });
    if (!last || answer.receiptStates.join() !== last.join()) {
      const r = answer.intentReceipt;
      const hashes = [r.depositTransaction, r.originTransaction, r.destinationTransaction]
        .map((tx) => tx?.txnHash?.slice(0, 12) ?? '-')
        .join(' ');
      const at = ((Date.now() - started) / 1000).toFixed(2);
      print(`   +${at}s ${r.status.padEnd(9)} [${answer.receiptStates.join(', ')}]  txs ${hashes}`);
    }
    last = answer.receiptStates;
    if (answer.done) return answer.intentReceipt;
  }
}

function printQuote(intent: Intent): void {
  const q = intent.quote;
  const f = intent.fees;
  const from = (v: bigint) => `${formatUnits(v, decimals(FROM_SYMBOL))} ${FROM_SYMBOL}`;
  const to = (v: bigint) => `${formatUnits(v, decimals(TO_SYMBOL))} ${TO_SYMBOL}`;
  const usd = (v: number) => `$${v.toFixed(4)}`;
  const pct = (v: number) => `${v.toFixed(3)}%`;
  print(`   intent ${intent.intentId}`);
  print(`   route ${q.routeProviders.join(' → ')}; expires ${intent.expiresAt}`);
  print(`   pay ${from(q.fromAmount)} (${usd(q.fromAmountUsd)})`);
  print(
    `   get ${to(q.toAmount)} (${usd(q.toAmountUsd)}), at least ${to(q.toAmountMin)} (slippage ${q.maxSlippage})`,
  );
  print(
    `   fees: gas ${from(f.gasFeeTotal)} (${usd(f.gasFeeUsd)}), service ${from(f.trailsFeeTotal)} (${usd(f.trailsFeeUsd)}), providers ${from(f.providerFeeTotal)} (${usd(f.providerFeeUsd)}); total ${from(f.totalFeeAmount)} (${usd(f.totalFeeUsd)})`,
  );
  const d = q.priceImpactDetails;
  print(`   price impact ${pct(q.priceImpact)} (${usd(q.priceImpactUsd)}):`);
  for (const [name, part] of Object.entries(d)) {
    print(
      `     ${name.padEnd(24)} ${pct(part.priceImpact).padStart(9)} ${usd(part.priceImpactUsd).padStart(10)}`,
    );
  }
  print(`   deposit ${from(intent.depositTransaction.amount)} to ${intent.originIntentAddress}`);
}

function printReceipt(r: IntentReceipt): void {
  const s = r.summary;
  print(`   status ${r.status}; started ${s.startedAt}, finished ${s.finishedAt}`);
  const legs: [string, IntentReceipt['depositTransaction'] | undefined][] = [
    ['deposit', r.depositTransaction],
    ['origin', r.originTransaction],
    ['destination', r.destinationTransaction],
  ];
  for (const [name, tx] of legs) {
    if (!tx) continue;
    print(
      `   ${name.padEnd(11)} ${tx.status.padEnd(9)} chain ${tx.chainId} ${tx.txnHash ?? '-'} mined ${tx.txnMinedAt ?? '-'}`,
    );
  }
  const symbol = s.destinationTokenMetadata.symbol;
  print(
    `   quoted ${formatUnits(s.destinationTokenAmount ?? 0n, decimals(symbol))} ${symbol} to ${s.destinationToAddress}`,
  );
}

type Balances = Record<string, bigint>;

async function balances(alpha: Side, beta: Side, user: Address): Promise<Balances> {
  const read = (s: Side, symbol: string) =>
    symbol === 'ETH'
      ? s.client.getBalance({ address: user })
      : s.client.readContract({
          address: token(s.entry, symbol),
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [user],
        });
  const pairs: [Side, string][] = [
    [alpha, 'ETH'],
    [alpha, FROM_SYMBOL],
    [beta, 'ETH'],
    [beta, TO_SYMBOL],
  ];
  const values = await Promise.all(pairs.map(([s, symbol]) => read(s, symbol)));
  return Object.fromEntries(pairs.map(([s, symbol], i) => [`${s.entry.name} ${symbol}`, values[i]!]));
}

function printBalances(title: string, now: Balances, before?: Balances): void {
  print(`\n${title} (demo user):`);
  for (const [label, value] of Object.entries(now)) {
    const symbol = label.split(' ').at(-1)!;
    const shown = formatUnits(value, decimals(symbol));
    const delta = before ? value - before[label]! : undefined;
    const change =
      delta === undefined ? '' : `  (${delta >= 0n ? '+' : ''}${formatUnits(delta, decimals(symbol))})`;
    print(`   ${label.padEnd(14)} ${shown}${change}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
