#!/usr/bin/env node
// Entry point of the `switchyard` command: runs the sources compiled to dist/ (rebuilt when they change;
// see compile-sources.js). SWITCHYARD_TSX=1 runs the TypeScript sources through tsx instead.
if (process.env.SWITCHYARD_TSX === '1') {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
} else {
  const { compiledEntry } = await import('./compile-sources.js');
  await import(await compiledEntry('cli/main.ts'));
}
