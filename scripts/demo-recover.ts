/**
 * `npm run demo -- --recover`: stranded funds, recovered by the owner's signature. The demo user quotes and
 * commits an intent on the first devnet chain, then sends USDC to its address on the second chain by mistake
 * (where the intent can never run). PrepareIntentRecovery finds it and answers the typed data; the user signs
 * it; BuildIntentRecoveryTransaction answers a transaction that someone else (the devnet's deployer, who has
 * gas there) sends; the USDC is back with the user. Exits 0 when it is.
 *
 * The official client 0.9.4 has no recovery methods, so these two calls are plain JSON on /rpc/Trails.
 */
import { type Address, encodeFunctionData, erc20Abi, formatUnits, type Hex, parseUnits } from 'viem';
import { toLocalAccount } from '../src/devnet/accounts.ts';
import {
  createDevnetPublicClient,
  createDevnetWalletClient,
  type DevnetPublicClient,
  devnetChain,
} from '../src/devnet/chain-clients.ts';
import type { DevnetChainEntry, DevnetFile } from '../src/devnet/devnet-file.ts';

/** What the user sends to the wrong chain, in whole USDC. */
const STRANDED_USDC = '25';
const USDC_DECIMALS = 6;

const print = (line = '') => process.stdout.write(`${line}\n`);

// biome-ignore lint/suspicious/noExplicitAny: the answers are printed from untyped JSON
type Json = Record<string, any>;

export async function runRecoveryDemo(devnet: DevnetFile): Promise<number> {
  const [alphaEntry, betaEntry] = devnet.chains;
  if (!alphaEntry || !betaEntry) throw new Error('demo: devnet.json lists fewer than two chains');
  const deployer = devnet.accounts.deployer;
  if (!deployer) throw new Error('demo: devnet.json has no deployer account to send the recovery');
  const user = devnet.accounts.user.address;
  const call = rpc(devnet);
  const beta = clientOf(betaEntry);
  const usdcBeta = token(betaEntry, 'USDC');
  const amount = parseUnits(STRANDED_USDC, USDC_DECIMALS);
  print(`Switchyard recovery demo: ${STRANDED_USDC} USDC sent to an intent address on the wrong chain`);

  print(`\n1. QuoteIntent and CommitIntent on ${alphaEntry.name}`);
  const { intent } = await call('QuoteIntent', {
    ownerAddress: user,
    originChainId: alphaEntry.chainId,
    originTokenAddress: token(alphaEntry, 'USDC'),
    originTokenAmount: amount.toString(),
    destinationChainId: alphaEntry.chainId,
    destinationTokenAddress: token(alphaEntry, 'USDC'),
    destinationToAddress: user,
    tradeType: 'EXACT_INPUT',
  });
  await call('CommitIntent', { intent });
  const address = intent.originIntentAddress as Address;
  print(`   intent ${intent.intentId}, deposit address ${address}`);

  print(`\n2. The mistake: ${STRANDED_USDC} USDC sent to that address on ${betaEntry.name}`);
  const before = await usdcOf(beta, usdcBeta, user);
  const mistake = await send(betaEntry, devnet.accounts.user, {
    to: usdcBeta,
    data: transferData(address, amount),
  });
  print(`   tx ${mistake}; the user now holds ${formatUnits(before - amount, USDC_DECIMALS)} USDC there`);

  print('\n3. PrepareIntentRecovery');
  const prepared = await call('PrepareIntentRecovery', { intentId: intent.intentId });
  for (const t of prepared.recoveryTokens as Json[]) {
    print(
      `   recoverable: ${formatUnits(BigInt(t.balance), t.decimals)} ${t.symbol} on chain ${t.chainId} at ${prepared.intentAddress}`,
    );
  }
  const p = prepared.payload;
  print(
    `   payload: ${p.token} to ${p.recipient} on chain ${p.chainId}, valid until chain time ${p.deadline}`,
  );
  print(`   payload hash ${prepared.payloadHash}`);

  print('\n4. The user signs the typed data (EIP-712)');
  const signature = await toLocalAccount(devnet.accounts.user).signTypedData(forViem(prepared.typedData));
  print(`   signature ${signature.slice(0, 18)}…`);

  print('\n5. BuildIntentRecoveryTransaction');
  const tx = await call('BuildIntentRecoveryTransaction', {
    intentId: intent.intentId,
    payload: prepared.payload,
    signature,
    intentAddress: prepared.intentAddress,
  });
  print(`   to ${tx.to} on chain ${tx.chainId}, value ${tx.value}, requiresDeploy ${tx.requiresDeploy}`);

  print(`\n6. Someone else sends it (the devnet deployer, ${deployer.address})`);
  const recovered = await send(betaEntry, deployer, { to: tx.to, data: tx.data });
  print(`   tx ${recovered}`);
  const after = await usdcOf(beta, usdcBeta, user);
  print(
    `\nthe user's USDC on ${betaEntry.name}: ${formatUnits(before, USDC_DECIMALS)} before the mistake, ${formatUnits(after, USDC_DECIMALS)} after the recovery`,
  );
  return after === before ? 0 : 1;
}

function rpc(devnet: DevnetFile) {
  return async (method: string, body: unknown): Promise<Json> => {
    const response = await fetch(`${devnet.apiUrl}/rpc/Trails/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': devnet.accessKey ?? '' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Json;
    if (response.status !== 200) throw new Error(`${method}: ${json.error}: ${json.message}`);
    return json;
  };
}

/** The answered typed data (uint256 as decimal strings) as viem signs it. */
function forViem(typed: Json) {
  const { EIP712Domain: _domainType, ...types } = typed.types;
  const m = typed.message;
  return {
    domain: typed.domain,
    types,
    primaryType: typed.primaryType,
    message: { ...m, maxFee: BigInt(m.maxFee), nonce: BigInt(m.nonce), deadline: BigInt(m.deadline) },
  };
}

function clientOf(entry: DevnetChainEntry): DevnetPublicClient {
  return createDevnetPublicClient(devnetChain(entry.chainId, entry.name, entry.rpcUrl));
}

function token(entry: DevnetChainEntry, symbol: string): Address {
  const address = entry.tokens[symbol];
  if (!address) throw new Error(`demo: ${entry.name} has no ${symbol}`);
  return address;
}

function usdcOf(client: DevnetPublicClient, usdc: Address, holder: Address): Promise<bigint> {
  return client.readContract({ address: usdc, abi: erc20Abi, functionName: 'balanceOf', args: [holder] });
}

function transferData(to: Address, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
}

async function send(
  entry: DevnetChainEntry,
  from: DevnetFile['accounts']['user'],
  tx: { to: Address; data: Hex },
): Promise<Hex> {
  const chain = devnetChain(entry.chainId, entry.name, entry.rpcUrl);
  const wallet = createDevnetWalletClient(chain, toLocalAccount(from));
  const hash = await wallet.sendTransaction(tx);
  const receipt = await clientOf(entry).waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
  return hash;
}
