/**
 * QuoteIntent latency per route kind (V2, V3 and split swaps among them) beside the RPC reads that quote
 * needs, in the same run, on the devnet.
 *
 * Every chain client of the server (intent services and price source) goes through a recording transport
 * that notes each JSON-RPC request (method, params, time). For each route kind the benchmark
 *   1. sends QuoteIntent through the official client `--quotes` times (after a warm-up) and takes the
 *      median and p99 of the round trip, noting the RPC requests each quote made;
 *   2. replays one quote's requests straight to the chains, one after another (the same methods and
 *      params, no server around them) `--quotes` times: the median of that is "the reads that quote needs".
 * The mark (issue 4): the QuoteIntent median at most twice the reads' median.
 *
 *   npx tsx bench/quote.ts [--quotes 50]
 */
import { parseArgs } from 'node:util';
import { type QuoteIntentRequest, TrailsApi } from '@0xtrails/api';
import {
  type Address,
  createPublicClient,
  encodeFunctionData,
  http,
  type PublicClient,
  parseUnits,
  type Transport,
  zeroAddress,
} from 'viem';
import { devnetOperator } from '../src/app/devnet-operator.ts';
import { createKeepAliveFetch } from '../src/chains/keep-alive-fetch.ts';
import { accruingVaultAbi } from '../src/contracts/abis.generated.ts';
import { AMOUNT_PLACEHOLDER } from '../src/intents/plan/constants.ts';
import type { IntentServices } from '../src/intents/services/index.ts';
import { createSilentLogger } from '../src/internal/logger.ts';
import { createStore } from '../src/store/create-store.ts';
import { startTestService } from '../test/harness/app.ts';
import { startTestDevnet, type TestDevnetChain } from '../test/harness/devnet.ts';
import { startBareServer } from './support/bare-server.ts';

/** The mark: QuoteIntent's median at most this many times the median of its reads. */
const MAX_QUOTE_TO_READS = 2;
const QUOTE_PATH = '/rpc/Trails/QuoteIntent';
/** Quotes per route before measuring: JIT, the price cache, SQLite's statement cache. */
const WARMUP_QUOTES = 5;
/** The service fee charged in the benchmark (bps), as on a real deployment. */
const SERVICE_FEE_BPS = 25n;

interface RpcCall {
  chainId: number;
  method: string;
  params: unknown;
  ms: number;
}

/** Wraps a transport so every request is appended to `sink` (when it is set) with its duration. */
function recording(inner: Transport, chainId: number, sink: { calls: RpcCall[] | undefined }): Transport {
  return (options) => {
    const transport = inner(options);
    return {
      ...transport,
      async request(args: { method: string; params?: unknown }) {
        const started = performance.now();
        try {
          return await transport.request(args as never);
        } finally {
          sink.calls?.push({
            chainId,
            method: args.method,
            params: args.params,
            ms: performance.now() - started,
          });
        }
      },
    } as ReturnType<Transport>;
  };
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { quotes: { type: 'string', default: '50' }, route: { type: 'string' } },
  });
  const quotes = Number(values.quotes);
  const log = createSilentLogger();
  const net = await startTestDevnet();
  const store = await createStore({ sqlitePath: ':memory:', log });
  try {
    const sink: { calls: RpcCall[] | undefined } = { calls: undefined };
    // The transport the service runs with (src/app/start-switchyard.ts): viem over keep-alive node:http.
    // The replayed reads use the same transport, so both sides pay the same per-request cost.
    const rpcFetch = createKeepAliveFetch();
    const transportOf = (c: TestDevnetChain) =>
      http(c.entry.rpcUrl, { fetchFn: rpcFetch.fetch, maxResponseBodySize: false });
    const clients = new Map(
      net.chains.map((c) => [
        c.entry.chainId,
        createPublicClient({
          transport: recording(transportOf(c), c.entry.chainId, sink),
        }) as PublicClient,
      ]),
    );
    const direct = new Map(
      net.chains.map((c) => [c.entry.chainId, createPublicClient({ transport: transportOf(c) })]),
    );
    const accounts = net.devnet.accounts;
    // The time inside QuoteIntent's service (plan, reads, wire intent, store write), without HTTP.
    const handlerMs: { ms: number[] | undefined } = { ms: undefined };
    const timed = (built: IntentServices): IntentServices => ({
      ...built,
      async quote(request, projectId) {
        const started = performance.now();
        try {
          return await built.quote(request, projectId);
        } finally {
          handlerMs.ms?.push(performance.now() - started);
        }
      },
    });
    // The process `switchyard start` assembles, its reads through the recording clients; no engine runs
    // (nothing is executed here).
    const app = await startTestService({
      chains: net.chainConfigs,
      operator: devnetOperator(net.devnet),
      store,
      engine: { requestExecution: async () => undefined },
      intentServices: { serviceFeeBps: SERVICE_FEE_BPS },
      rateLimit: false,
      readClients: clients,
      wrapIntents: timed,
      projectName: 'bench-quote',
    });
    const { url, key } = app;
    const client = new TrailsApi(key, { hostname: url });
    // The floor any server pays: a bare node:http server answering each route's QuoteIntent with the bytes
    // our API answered it with, through the same official client (filled per route below).
    const bareAnswers = new Map<string, Buffer>();
    const bare = await startBareServer(bareAnswers, { [QUOTE_PATH]: 'ownerAddress' });
    const bareClient = new TrailsApi(key, { hostname: bare.url });

    const rows: string[] = [];
    let ok = true;
    const picked = routes(net.chains as TestDevnetChain[], accounts.user.address).filter(
      ([name]) => !values.route || name.includes(values.route),
    );
    for (const [name, request] of picked) {
      for (let i = 0; i < WARMUP_QUOTES; i++) await client.quoteIntent(request);
      bareAnswers.set(`${QUOTE_PATH} ${request.ownerAddress}`, await quoteBytes(url, key, request));
      for (let i = 0; i < WARMUP_QUOTES; i++) await bareClient.quoteIntent(request);
      const quoteMs: number[] = [];
      const readsMs: number[] = [];
      const pingMs: number[] = [];
      const bareMs: number[] = [];
      const callCounts: number[] = [];
      let recorded: RpcCall[] = [];
      handlerMs.ms = [];
      // Quote, its own reads replayed, and a Ping, one after another in each round: the three see the
      // same machine load, so a noisy neighbour moves them together instead of skewing the ratio.
      for (let i = 0; i < quotes; i++) {
        sink.calls = [];
        let started = performance.now();
        await client.quoteIntent(request);
        quoteMs.push(performance.now() - started);
        recorded = sink.calls;
        sink.calls = undefined;
        callCounts.push(recorded.length);
        started = performance.now();
        for (const call of recorded) {
          await direct.get(call.chainId)!.request({ method: call.method, params: call.params } as never);
        }
        readsMs.push(performance.now() - started);
        started = performance.now();
        await client.ping();
        pingMs.push(performance.now() - started);
        started = performance.now();
        await bareClient.quoteIntent(request);
        bareMs.push(performance.now() - started);
      }
      const handler = handlerMs.ms;
      handlerMs.ms = undefined;
      const methods = summariseMethods(recorded);
      const p50 = (v: number[]) => percentile(v, 50);
      const ratio = p50(quoteMs) / p50(readsMs);
      // A quote served from the fee and inventory caches reads nothing: there is no read time to compare with.
      const noReads = percentile(callCounts, 50) === 0;
      const pass = noReads || ratio <= MAX_QUOTE_TO_READS;
      ok &&= pass;
      // What a server that did nothing but wait for one read would need, over the reads: (bare + read) ÷ reads.
      const floor = (p50(bareMs) + p50(readsMs) / Math.max(1, percentile(callCounts, 50))) / p50(readsMs);
      const versus = (v: number) => (noReads ? '-' : v.toFixed(2));
      const mark = noReads ? 'n/a (no reads)' : pass ? 'PASS' : 'MISS';
      rows.push(
        `| ${name} | ${p50(quoteMs).toFixed(1)} | ${percentile(quoteMs, 99).toFixed(1)} | ${p50(handler).toFixed(1)} | ${p50(pingMs).toFixed(1)} | ${p50(bareMs).toFixed(1)} | ${percentile(callCounts, 50)} (${methods}) | ${p50(readsMs).toFixed(1)} | ${versus(ratio)} | ${versus(floor)} | ${mark} |`,
      );
      process.stdout.write(`${rows.at(-1)}\n`);
    }
    process.stdout.write(
      `\nQuoteIntent (${quotes} quotes per route, after ${WARMUP_QUOTES} warm-up), times in ms. handler = inside the QuoteIntent handler (no HTTP); ping = the client's Ping round trip; bare = the same QuoteIntent answered with the same bytes by a bare node:http server (the HTTP and client floor of this answer); reads = that quote's RPC requests replayed one after another; floor = (bare + one read) ÷ reads, the least ratio a server could reach if it did nothing but wait for one read\n\n`,
    );
    process.stdout.write(
      '| route | QuoteIntent p50 | QuoteIntent p99 | handler p50 | Ping p50 | bare p50 | RPC requests per quote | reads p50 | p50 ÷ reads | floor ÷ reads | mark ≤ 2 |\n|---|---|---|---|---|---|---|---|---|---|---|\n',
    );
    process.stdout.write(`${rows.join('\n')}\n`);
    await bare.close();
    await app.stop();
    rpcFetch.close();
    return ok ? 0 : 1;
  } finally {
    await store.close();
    await net.stop();
  }
}

/** Our API's answer to one QuoteIntent, as bytes (what the bare server replays). */
async function quoteBytes(url: string, key: string, request: QuoteIntentRequest): Promise<Buffer> {
  const response = await fetch(`${url}${QUOTE_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-access-key': key },
    body: JSON.stringify(request, (_k, v) => (typeof v === 'bigint' ? v.toString() : v)),
  });
  if (!response.ok) throw new Error(`QuoteIntent answered ${response.status}: ${await response.text()}`);
  return Buffer.from(await response.arrayBuffer());
}

function summariseMethods(calls: RpcCall[]): string {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(c.method, (counts.get(c.method) ?? 0) + 1);
  return [...counts].map(([m, n]) => `${n} ${m}`).join(', ');
}

function routes(chains: TestDevnetChain[], user: Address): [string, QuoteIntentRequest][] {
  const [alpha, beta, gamma] = chains as [TestDevnetChain, TestDevnetChain, TestDevnetChain];
  const tokenOf = (c: TestDevnetChain, s: string) =>
    s === 'ETH' ? zeroAddress : (c.entry.tokens[s] as Address);
  const req = (
    from: TestDevnetChain,
    fromToken: string,
    to: TestDevnetChain,
    toToken: string,
    amount: bigint,
    extra: Partial<QuoteIntentRequest> = {},
  ): QuoteIntentRequest => ({
    ownerAddress: user,
    originChainId: from.entry.chainId,
    originTokenAddress: tokenOf(from, fromToken),
    destinationChainId: to.entry.chainId,
    destinationTokenAddress: tokenOf(to, toToken),
    destinationToAddress: user,
    originTokenAmount: amount,
    destinationTokenAmount: 0n,
    tradeType: 'EXACT_INPUT' as QuoteIntentRequest['tradeType'],
    ...extra,
  });
  const vault = gamma.entry.contracts.usdcVault as Address;
  const vaultCall = encodeFunctionData({
    abi: accruingVaultAbi,
    functionName: 'deposit',
    args: [BigInt(AMOUNT_PLACEHOLDER), user],
  });
  return [
    ['same-chain transfer', req(alpha, 'USDC', alpha, 'USDC', parseUnits('100', 6))],
    ['same-chain swap', req(alpha, 'USDC', alpha, 'DAI', parseUnits('100', 6))],
    ['cross-chain same token', req(alpha, 'USDC', beta, 'USDC', parseUnits('100', 6))],
    ['cross-chain swap both ends', req(gamma, 'DAI', alpha, 'WETH', parseUnits('600', 18))],
    // Uniswap V3 (the devnet's depths, src/devnet/constants.ts): 5 WETH goes through the 0.05 % pool alone,
    // 100 WETH is split across the 0.05 % and 0.3 % pools and the V2 pair, 5 ETH across chains through V3 at
    // both ends.
    ['same-chain V3 swap', req(alpha, 'WETH', alpha, 'USDC', parseUnits('5', 18))],
    ['same-chain split swap', req(alpha, 'WETH', alpha, 'USDC', parseUnits('100', 18))],
    ['cross-chain V3 both ends', req(gamma, 'ETH', beta, 'DAI', parseUnits('5', 18))],
    [
      'destination call (vault)',
      req(alpha, 'DAI', gamma, 'USDC', parseUnits('200', 18), {
        destinationToAddress: vault,
        destinationCallData: vaultCall,
        destinationApproveAddress: vault,
        destinationCallValue: 0n,
      } as Partial<QuoteIntentRequest>),
    ],
  ];
}

process.exitCode = await main();
