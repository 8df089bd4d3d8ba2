/**
 * The signature check exactly as docs/webhooks.md prints it ("Verifying a delivery"), loaded as a module: a
 * test that verifies deliveries with it proves the snippet a reader copies works.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export type VerifySignature = (
  secret: string,
  header: string,
  rawBody: string,
  toleranceSeconds?: number,
) => boolean;

const DOC = path.resolve(import.meta.dirname, '../../../docs/webhooks.md');

export async function loadDocsVerifier(): Promise<VerifySignature> {
  const doc = await readFile(DOC, 'utf8');
  const section = doc.slice(doc.indexOf('## Verifying a delivery'));
  const match = /```js\n([\s\S]*?)```/.exec(section);
  if (!match) throw new Error('docs/webhooks.md has no js block under "Verifying a delivery"');
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'switchyard-snippet-')), 'verify.mjs');
  await writeFile(file, match[1]!);
  const module = (await import(pathToFileURL(file).href)) as { verifySwitchyardSignature: VerifySignature };
  return module.verifySwitchyardSignature;
}
