/**
 * Request validation for one method: rename seed spellings, check against the TypeBox schema
 * (compiled once), decode amounts to bigint. Any failure is an InvalidArgumentError naming the field
 * path (`intent.quoteRequest.originTokenAmount: must be …`).
 */
import type { TSchema } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { type ValueError, ValueErrorType } from '@sinclair/typebox/errors';
import { TransformDecodeError } from '@sinclair/typebox/value';
import { renameKeysIn } from './dialect.ts';
import { InvalidArgumentError } from './errors/rpc-errors.ts';

export type RequestDecoder = (body: unknown) => unknown;

export function compileRequestDecoder(schema: TSchema): RequestDecoder {
  const check = TypeCompiler.Compile(schema);
  return (body) => {
    // An absent body is an empty request: input-less methods are often called without one.
    const value = renameKeysIn(body === undefined || body === null ? {} : body);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InvalidArgumentError('', 'request body must be a JSON object');
    }
    if (!check.Check(value)) throw describe(check.Errors(value).First(), value);
    try {
      return check.Decode(value);
    } catch (error) {
      if (error instanceof TransformDecodeError) {
        throw new InvalidArgumentError(fieldPath(error.path), error.message);
      }
      throw error;
    }
  };
}

function describe(error: ValueError | undefined, root: unknown): InvalidArgumentError {
  if (!error) return new InvalidArgumentError('', 'request does not match the method schema');
  const field = fieldPath(error.path);
  if (error.value === undefined && valueAt(root, error.path) === undefined) {
    return new InvalidArgumentError(field, 'is required');
  }
  const custom = (error.schema as Record<string, unknown>)['x-error'];
  if (typeof custom === 'string') return new InvalidArgumentError(field, custom);
  return new InvalidArgumentError(field, MESSAGES[error.type] ?? error.message.toLowerCase());
}

const MESSAGES: Partial<Record<ValueErrorType, string>> = {
  [ValueErrorType.Object]: 'must be an object',
  [ValueErrorType.Array]: 'must be an array',
  [ValueErrorType.String]: 'must be a string',
  [ValueErrorType.Number]: 'must be a number',
  [ValueErrorType.Integer]: 'must be an integer',
  [ValueErrorType.Boolean]: 'must be true or false',
};

/** `/tokens/0/chainId` → `tokens[0].chainId`. */
export function fieldPath(pointer: string): string {
  let out = '';
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out += /^[0-9]+$/.test(part) ? `[${part}]` : out ? `.${part}` : part;
  }
  return out;
}

function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const raw of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[raw.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return node;
}
