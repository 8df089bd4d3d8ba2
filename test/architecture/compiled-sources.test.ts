/**
 * What `switchyard` runs (bin/compile-sources.js): src/ compiled to dist/, one file per source, with viem,
 * kysely and typebox bundled once into dist/vendor/. No compiled file imports those packages from
 * node_modules (a second copy: its classes fail `instanceof` against the first's), and the entries a
 * source imports share one copy of their code.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { compiledEntry } from '../../bin/compile-sources.js';

const DIST = path.resolve(import.meta.dirname, '../../dist');

/** A bare import of a vendored package in compiled code: `from "viem"`, `import("kysely/x")`. */
const BARE_VENDORED_IMPORT =
  /(?:from\s*|import\s*\(\s*)["'](?:viem|kysely|@sinclair\/typebox)(?:\/[^"']*)?["']/;

describe('the compiled sources', () => {
  let mainUrl: string;
  beforeAll(async () => {
    mainUrl = await compiledEntry('cli/main.ts');
  }, 120_000);

  it('import viem, kysely and typebox from dist/vendor/, never from node_modules', () => {
    expect(fileURLToPath(mainUrl)).toBe(path.join(DIST, 'cli/main.js'));
    const compiled = readdirSync(DIST, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.js'))
      .map((entry) => path.join(entry.parentPath, entry.name))
      .filter((file) => !file.startsWith(path.join(DIST, 'vendor') + path.sep));
    expect(compiled.length).toBeGreaterThan(300);
    const bare = compiled.filter((file) => BARE_VENDORED_IMPORT.test(readFileSync(file, 'utf8')));
    expect(bare.map((file) => path.relative(DIST, file))).toEqual([]);
    expect(readFileSync(path.join(DIST, 'store/open-postgres.js'), 'utf8')).toContain(
      'from "../vendor/kysely.js"',
    );
  });

  it('share one copy of a package between its entries (viem and viem/utils)', async () => {
    const vendor = (entry: string) => pathToFileURL(path.join(DIST, 'vendor', `${entry}.js`)).href;
    const viem = await import(vendor('viem'));
    const utils = await import(vendor('viem/utils'));
    expect(typeof viem.isAddress).toBe('function');
    expect(utils.isAddress).toBe(viem.isAddress);
    expect(utils.keccak256).toBe(viem.keccak256);
  });
});
