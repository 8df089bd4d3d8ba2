/**
 * The layering rule (CONTRIBUTING.md, "Layers"): the domain (src/intents, src/yield, src/engine) and the
 * chain clients (src/chains) never import the API (src/api), which adapts them to the wire, and the chain
 * clients never import the store. Read from the sources' import graph, so an arrow that comes back fails
 * here with the file and the import.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

interface Rule {
  /** Folders (from the repository root) whose files are checked. */
  from: readonly string[];
  /** A folder none of them may import from. */
  notInto: string;
}

const RULES: readonly Rule[] = [
  { from: ['src/intents', 'src/yield', 'src/engine', 'src/chains'], notInto: 'src/api' },
  // The chains persist nothing: the sender takes its journal as a parameter (transaction-journal.ts).
  { from: ['src/chains'], notInto: 'src/store' },
];

/** Every .ts file below a folder (tests included: a test of the domain needs no API either). */
function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)));
}

/** The repository paths a file imports (static, type-only, re-exports and dynamic), relative ones only. */
function importsOf(file: string, source: string): string[] {
  return ts
    .preProcessFile(source, true, true)
    .importedFiles.map((imported) => imported.fileName)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => path.relative(ROOT, path.resolve(ROOT, path.dirname(file), specifier)));
}

function violations(rule: Rule, files: readonly { file: string; source: string }[]): string[] {
  const banned = `${rule.notInto}/`;
  return files.flatMap(({ file, source }) =>
    importsOf(file, source)
      .filter((target) => target.startsWith(banned))
      .map((target) => `${file} imports ${target}`),
  );
}

describe('import rules', () => {
  for (const rule of RULES) {
    it(`no file in ${rule.from.join(', ')} imports from ${rule.notInto}`, () => {
      // Every folder is read: a renamed or misspelt one would make the rule hold over nothing.
      for (const folder of rule.from) expect(sourceFiles(folder).length, folder).toBeGreaterThan(0);
      const files = rule.from.flatMap(sourceFiles);
      const read = files.map((file) => ({ file, source: readFileSync(path.join(ROOT, file), 'utf8') }));
      expect(violations(rule, read)).toEqual([]);
    });

    it(`would catch an arrow into ${rule.notInto} in every import form`, () => {
      const file = `${rule.from[0]}/some/operation.ts`;
      const into = path.relative(path.dirname(file), `${rule.notInto}/x.ts`);
      const forms = [
        `import { x } from '${into}';`,
        `import type { X } from '${into}';`,
        `export { x } from '${into}';`,
        `const m = await import('${into}');`,
      ];
      for (const source of forms) expect(violations(rule, [{ file, source }]), source).toHaveLength(1);
    });
  }
});
