import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { METHODS } from '../../src/api/schemas/methods.ts';
import { renderOpenApi } from '../../src/api/write-openapi.ts';

describe('docs/openapi.json', () => {
  it('is current (regenerate with npm run openapi)', () => {
    const committed = readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(committed).toBe(renderOpenApi());
  });

  it('describes every method', () => {
    const doc = JSON.parse(renderOpenApi());
    expect(Object.keys(doc.paths).sort()).toEqual(
      Object.keys(METHODS)
        .map((m) => `/rpc/Trails/${m}`)
        .sort(),
    );
  });
});
