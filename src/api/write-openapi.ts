/** `npm run openapi`: writes docs/openapi.json from the schemas (a test keeps the committed file current). */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from './openapi.ts';
import { API_VERSION } from './server.ts';

export const renderOpenApi = (): string => `${JSON.stringify(buildOpenApiDocument(API_VERSION), null, 2)}\n`;

if (import.meta.url === `file://${process.argv[1]}`) {
  const target = new URL('../../docs/openapi.json', import.meta.url);
  writeFileSync(target, renderOpenApi());
  process.stdout.write(`wrote ${target.pathname}\n`);
}
