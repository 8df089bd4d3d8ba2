/**
 * Plain JSON Schemas derived from the TypeBox schemas: the response form (what Fastify's serialiser
 * compiles: amounts as strings, enums as `enum`, timestamps as date-time) and the request form (for
 * the OpenAPI document), optionally renamed into the seed's dialect.
 */
import type { TSchema } from '@sinclair/typebox';

type Json = Record<string, unknown>;
export type Form = 'request' | 'response';

export function deriveSchema(schema: TSchema, form: Form, rename?: ReadonlyMap<string, string>): Json {
  return derive(schema as unknown as Json, form, rename) as Json;
}

function derive(node: unknown, form: Form, rename?: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(node)) return node.map((n) => derive(n, form, rename));
  if (typeof node !== 'object' || node === null) return node;
  const schema = node as Json;
  const wire = schema['x-wire'];
  if (form === 'response') {
    if (wire === 'amount') return { type: 'string', pattern: '^[0-9]+$', description: schema.description };
    if (wire === 'enum') return { type: 'string', enum: schema['x-enum'] };
    if (wire === 'timestamp') return { type: 'string', format: 'date-time', description: schema.description };
  }
  const out: Json = {};
  for (const key of Object.keys(schema)) {
    if (key.startsWith('x-') || (key === 'title' && form === 'response')) continue;
    const value = schema[key];
    if (key === 'properties') out.properties = deriveProperties(value as Json, form, rename);
    else if (key === 'required') out.required = (value as string[]).map((k) => rename?.get(k) ?? k);
    else if (key === 'x-enum') continue;
    else out[key] = derive(value, form, rename);
  }
  if (form === 'request' && wire === 'enum')
    return { type: 'string', enum: schema['x-enum'], description: schema.description };
  return out;
}

function deriveProperties(properties: Json, form: Form, rename?: ReadonlyMap<string, string>): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(properties))
    out[rename?.get(key) ?? key] = derive(value, form, rename);
  return out;
}

/** True when a schema has a property whose name differs between the dialects. */
export function hasRenamedKey(schema: TSchema, rename: ReadonlyMap<string, string>): boolean {
  const visit = (node: unknown): boolean => {
    if (Array.isArray(node)) return node.some(visit);
    if (typeof node !== 'object' || node === null) return false;
    const props = (node as Json).properties as Json | undefined;
    if (props && Object.keys(props).some((k) => rename.has(k))) return true;
    return Object.values(node as Json).some(visit);
  };
  return visit(schema);
}
