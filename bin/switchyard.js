#!/usr/bin/env node
// Entry point of the `switchyard` command: runs the sources compiled to dist/ (rebuilt when they change;
// see compile-sources.js). SWITCHYARD_TSX=1 runs the TypeScript sources through tsx instead, and so does a
// failed compile (e.g. a read-only install), after saying why.
async function compiled() {
  if (process.env.SWITCHYARD_TSX === '1') return undefined;
  try {
    const { compiledEntry } = await import('./compile-sources.js');
    return await compiledEntry('cli/main.ts');
  } catch (error) {
    process.stderr.write(
      `switchyard: running through tsx, compiling to dist/ failed: ${error?.message ?? error}\n`,
    );
    return undefined;
  }
}

const entry = await compiled();
if (entry) {
  await import(entry);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
