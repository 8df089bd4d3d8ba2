/**
 * Wire primitives shared by every schema. Each carries an `x-wire` tag (how the response form and
 * the OpenAPI document derive from it) and an `x-error` text (the InvalidArgument message that names
 * the field). Amounts decode to bigint; everything else keeps its JSON type.
 */
import { type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import { normaliseAddress } from '../../internal/normalise-address.ts';

const MAX_UINT256 = 2n ** 256n - 1n;
/** uint256 has at most 78 decimal digits. */
const MAX_UINT256_DIGITS = 78;

export const AMOUNT_ERROR = 'must be a non-negative integer in base units (a decimal string)';

/** Token amounts, gas limits and prices, salts, nonces: bigint in code, a decimal string on the wire. */
export const Amount = Type.Transform(
  Type.Union(
    [
      Type.String({ pattern: `^[0-9]{1,${MAX_UINT256_DIGITS}}$` }),
      Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
    ],
    { 'x-wire': 'amount', 'x-error': AMOUNT_ERROR, description: 'integer in base units, a decimal string' },
  ),
)
  .Decode((value) => {
    const amount = BigInt(value);
    if (amount > MAX_UINT256) throw new Error('must fit in 256 bits');
    return amount;
  })
  .Encode((value: bigint) => value.toString());

/**
 * A 20-byte address in any letter case. Lower case and a correct EIP-55 checksum decode as sent; any other
 * case (all upper, a wrong checksum) decodes checksummed (normaliseAddress).
 */
export const Address = Type.Transform(
  Type.String({
    pattern: '^0x[0-9a-fA-F]{40}$',
    'x-wire': 'address',
    'x-error': 'must be a 20-byte hex address (0x followed by 40 hex digits)',
    description: '0x-prefixed 20-byte address, hex digits in any letter case',
  }),
)
  .Decode((value): string => {
    const address = normaliseAddress(value);
    // The pattern above already holds, so this only guards the two rules staying in step.
    if (address === undefined)
      throw new Error('must be a 20-byte hex address (0x followed by 40 hex digits)');
    return address;
  })
  .Encode((value) => value);

export const TxHash = Type.String({
  pattern: '^0x[0-9a-fA-F]{64}$',
  'x-wire': 'hash',
  'x-error': 'must be a 32-byte hex hash (0x followed by 64 hex digits)',
});

export const IntentId = Type.String({
  pattern: '^0x[0-9a-fA-F]{64}$',
  'x-wire': 'hash',
  'x-error': 'must be an intent id (0x followed by 64 hex digits)',
});

export const HexData = Type.String({
  pattern: '^0x([0-9a-fA-F]{2})*$',
  maxLength: 262_144,
  'x-wire': 'hex',
  'x-error': 'must be 0x-prefixed hex bytes',
});

export const ChainId = Type.Integer({
  minimum: 1,
  maximum: Number.MAX_SAFE_INTEGER,
  'x-wire': 'chainId',
  'x-error': 'must be a positive integer chain id',
});

/** RFC 3339 UTC timestamp, e.g. 2025-12-24T10:00:00.000Z. */
export const Timestamp = Type.String({ 'x-wire': 'timestamp', description: 'RFC 3339 UTC timestamp' });

export const Usd = Type.Number({ 'x-error': 'must be a number (US dollars)' });

export const Int = Type.Integer({
  minimum: Number.MIN_SAFE_INTEGER,
  maximum: Number.MAX_SAFE_INTEGER,
  'x-error': 'must be an integer',
});

export const NonNegativeInt = Type.Integer({
  minimum: 0,
  maximum: Number.MAX_SAFE_INTEGER,
  'x-error': 'must be a non-negative integer',
});

/** A closed set of strings; the response form becomes a plain `enum` for fast serialisation. */
export function StringEnum<const T extends readonly string[]>(
  values: T,
  description?: string,
): TUnsafe<T[number]> {
  const options: Record<string, unknown> = {
    'x-wire': 'enum',
    'x-enum': [...values],
    'x-error': `must be one of ${values.join(', ')}`,
  };
  if (description) options.description = description;
  return Type.Union(
    values.map((v) => Type.Literal(v)),
    options,
  ) as unknown as TUnsafe<T[number]>;
}

export const Str = (options: Record<string, unknown> = {}) =>
  Type.String({ 'x-error': 'must be a string', ...options });
export const Bool = Type.Boolean({ 'x-error': 'must be true or false' });
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
