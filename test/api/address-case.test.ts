/**
 * The address rule (docs/api.md "Wire rules"): `0x` and 40 hex digits in any letter case. Lower case and a
 * correct EIP-55 checksum come back as sent; all upper case and a mixed case whose checksum is wrong come back
 * checksummed. Every request field that takes an address follows it; the catalogue methods are checked over
 * HTTP on both prefixes and through the official client (the intent flow: address-case-flow.test.ts).
 */
import { TrailsApi } from '@0xtrails/api';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS } from '../../src/api/schemas/methods.ts';
import type { ApiServer } from '../../src/api/server.ts';
import { compileRequestDecoder } from '../../src/api/validate-request.ts';
import { KEY, post, startTestServer, USDC_A, WETH_B } from './fixtures.ts';

/** '0xAbC…' → '0xABC…' (the prefix stays lower case: only the digits change case). */
const upper = (address: string) => `0x${address.slice(2).toUpperCase()}`;
/** A mixed case that is not the EIP-55 checksum: every letter's case flipped. */
const flipped = (address: string) =>
  `0x${[...address.slice(2)].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('')}`;

type Json = Record<string, unknown>;

/**
 * Members named like an address that hold no EVM address: a Solana or Tron edge address (base58, or Tron's
 * 21-byte hex) is kept as sent (the last test below).
 */
const NOT_EVM = new Set(['byEdgeAddress']);

/**
 * Every request member whose name says it holds an EVM address, with its schema (array items unwrapped).
 */
function addressMembers(node: unknown, path: string, out: [string, Json][] = []): [string, Json][] {
  if (Array.isArray(node)) {
    for (const n of node) addressMembers(n, path, out);
    return out;
  }
  if (typeof node !== 'object' || node === null) return out;
  const schema = node as Json;
  for (const [key, value] of Object.entries((schema.properties ?? {}) as Json)) {
    const member = value as Json;
    const inner = (member.type === 'array' ? member.items : member) as Json;
    if (/address(es)?$/i.test(key) && !NOT_EVM.has(key)) out.push([`${path}${key}`, inner]);
    addressMembers(member, `${path}${key}.`, out);
  }
  for (const key of ['items', 'anyOf', 'allOf', 'oneOf']) addressMembers(schema[key], path, out);
  return out;
}

describe('every request field that takes an address', () => {
  const members = Object.entries(METHODS).flatMap(([method, def]) =>
    addressMembers(def.request, `${method}: `),
  );

  it('finds the address fields of every method that has them', () => {
    const paths = members.map(([path]) => path);
    for (const path of [
      'QuoteIntent: ownerAddress',
      'QuoteIntent: destinationToAddress',
      'CommitIntent: intent.quoteRequest.ownerAddress',
      'CommitIntent: intent.depositTransaction.toAddress',
      'ExecuteIntent: depositSignature.selectedGasFeeOption.feeCollectorAddress',
      'SearchIntents: byOwnerAddress',
      'SearchIntents: byOriginIntentAddress',
      'GetIntentHistory: byOwnerAddress',
      'GetIntentHistory: byParticipantAddresses',
      'GetIntentTransactionHistory: byOwnerAddress',
      'GetExactOutputRoutes: destinationTokenAddress',
      'GetTokenPrices: tokens.tokenAddress',
      'YieldCreateEnterAction: userWalletAddress',
    ]) {
      expect(paths).toContain(path);
    }
  });

  it.each([
    ['lower case', USDC_A.toLowerCase(), USDC_A.toLowerCase()],
    ['EIP-55 checksum', USDC_A, USDC_A],
    ['all upper case', upper(USDC_A), USDC_A],
    ['mixed case with a wrong checksum', flipped(USDC_A), USDC_A],
  ])('accepts %s and decodes it to the form the service uses', (_name, sent, decoded) => {
    expect(getAddress(flipped(USDC_A))).toBe(USDC_A);
    for (const [path, schema] of members) {
      expect({ path, decoded: Value.Decode(schema as TSchema, sent) }).toEqual({ path, decoded });
    }
  });

  it('still refuses what is not 20 bytes of hex, naming the field', () => {
    const decode = compileRequestDecoder(METHODS.SearchIntents.request);
    for (const bad of ['0x12', `0X${USDC_A.slice(2)}`, `${USDC_A}0`, `0x${'g'.repeat(40)}`]) {
      expect(() => decode({ byOwnerAddress: bad })).toThrow(/^byOwnerAddress: must be a 20-byte hex address/);
    }
  });

  it('keeps an edge address (Solana, Tron) as sent: it is no EVM address', () => {
    const solana = 'So11111111111111111111111111111111111111112';
    for (const method of ['SearchIntents', 'GetIntentHistory'] as const) {
      const decode = compileRequestDecoder(METHODS[method].request);
      expect(decode({ byEdgeAddress: solana })).toMatchObject({ byEdgeAddress: solana });
    }
  });
});

describe('catalogue methods with upper-case addresses', () => {
  let server: ApiServer;
  let url: string;
  let api: TrailsApi;

  beforeAll(async () => {
    ({ server, url } = await startTestServer());
    api = new TrailsApi(KEY, { hostname: url });
  });
  afterAll(() => server.close());

  it('prices a token given in upper case, echoing it checksummed, on both prefixes', async () => {
    for (const prefix of ['Trails', 'Service']) {
      const { status, json } = await post(
        url,
        `/rpc/${prefix}/GetTokenPrices`,
        { tokens: [{ chainId: 31337, tokenAddress: upper(USDC_A) }] },
        { 'x-access-key': KEY },
      );
      expect({ prefix, status }).toEqual({ prefix, status: 200 });
      expect(json.tokenPrices[0].token.tokenAddress).toBe(USDC_A);
      expect(json.tokenPrices[0].priceUsd).toBe(1);
    }
    const { tokenPrices } = await api.getTokenPrices({
      tokens: [{ chainId: 31337, tokenAddress: flipped(USDC_A) }],
    });
    expect(tokenPrices[0]!.priceUsd).toBe(1);
  });

  it('selects a listed token and answers routes for upper-case and mis-checksummed addresses', async () => {
    const { tokens } = await api.getTokenList({ chainIds: [31337], tokenAddress: upper(USDC_A) });
    expect(tokens.map((t) => t.symbol)).toEqual(['USDC']);
    const routes = await api.getExactInputRoutes({ originChainId: 31337, originTokenAddress: upper(USDC_A) });
    expect(routes.tokens.map((t) => `${t.chainId}:${t.symbol}`)).toContain('31338:WETH');
    const back = await api.getExactOutputRoutes({
      destinationChainId: 31338,
      destinationTokenAddress: flipped(WETH_B),
    });
    expect(back.tokens.map((t) => t.symbol)).toContain('USDC');
    const raw = await post(
      url,
      '/rpc/Service/GetExactOutputRoutes',
      { destinationChainId: 31338, destinationTokenAddress: upper(WETH_B) },
      { 'x-access-key': KEY },
    );
    expect(raw.status).toBe(200);
    expect(raw.json.tokens.map((t: { symbol: string }) => t.symbol)).toContain('USDC');
  });
});
