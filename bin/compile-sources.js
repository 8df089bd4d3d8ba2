// Compiles src/**/*.ts to plain JavaScript in dist/ (one .js file per source file, same layout, so paths
// taken from import.meta.url still resolve), cached by a hash of the sources. `switchyard` runs the
// compiled files: loading the app through tsx's in-process transpiler (a module-hooks worker thread, the
// transpiled sources and their maps) took ~60 MB of resident memory before the first request
// (docs/benchmarks.md, "Waiting at scale"). esbuild is the one tsx already installs.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIR = path.join(ROOT, 'src');
const OUT_DIR = path.join(ROOT, 'dist');
const STAMP = '.source-hash';
/** Bump when the compile options change, so an existing dist/ is rebuilt. */
const COMPILE_VERSION = '1';

/** The source files that make up the app (tests are not compiled). */
function sourceFiles(dir = SOURCE_DIR) {
  const files = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) files.push(full);
  }
  return files.sort();
}

function hashSources(files) {
  const hash = createHash('sha256').update(`${COMPILE_VERSION}\n${process.version}\n`);
  for (const file of files)
    hash.update(path.relative(SOURCE_DIR, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex');
}

function readStamp(dir) {
  try {
    return readFileSync(path.join(dir, STAMP), 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Returns the file URL of dist/<entry>.js, compiling first when dist/ is missing or older than the sources.
 * Concurrent callers (tests start several CLIs at once) each compile into their own directory and
 * rename it into place; whoever loses the race uses the winner's identical output.
 */
export async function compiledEntry(entry) {
  const esbuild = loadEsbuild();
  const files = sourceFiles();
  const hash = hashSources(files);
  const target = pathToFileURL(path.join(OUT_DIR, entry.replace(/\.ts$/, '.js'))).href;
  if (readStamp(OUT_DIR) === hash) return target;

  const staging = `${OUT_DIR}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await esbuild.build({
      entryPoints: files,
      outbase: SOURCE_DIR,
      outdir: staging,
      // Bundling is only the way to rewrite imports: every import stays external (packages as they are,
      // relative `./x.ts` as `./x.js`), so each source file becomes exactly one output file.
      bundle: true,
      packages: 'external',
      plugins: [relativeImportsAsJs],
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      sourcemap: 'linked',
      logLevel: 'silent',
    });
    writeFileSync(path.join(staging, STAMP), hash);
    if (existsSync(OUT_DIR) && readStamp(OUT_DIR) !== hash) {
      // A stale build: moved aside first (a directory cannot be renamed over a non-empty one). Another
      // process may have moved it already.
      const old = `${staging}.old`;
      try {
        renameSync(OUT_DIR, old);
      } catch {}
      rmSync(old, { recursive: true, force: true });
    }
    try {
      renameSync(staging, OUT_DIR);
    } catch (error) {
      // Another process put the same build in place first.
      if (readStamp(OUT_DIR) !== hash) throw error;
    }
    return target;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Bundles a script (a benchmark's server process) into `outfile`, with every import of src/ pointing at
 * its compiled file in dist/ (compiled first when stale), so the script runs the app exactly as
 * `switchyard` does, without tsx. Other relative imports (the script's fixtures) are bundled in.
 */
export async function compileScript(entryFile, outfile) {
  await compiledEntry('cli/main.ts');
  const toDist = {
    name: 'src-from-dist',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, (args) => {
        const resolved = path.resolve(args.resolveDir, args.path);
        if (!resolved.startsWith(SOURCE_DIR + path.sep)) return undefined;
        const compiled = path.join(OUT_DIR, path.relative(SOURCE_DIR, resolved)).replace(/\.ts$/, '.js');
        return { path: pathToFileURL(compiled).href, external: true };
      });
    },
  };
  await loadEsbuild().build({
    entryPoints: [entryFile],
    outfile,
    bundle: true,
    packages: 'external',
    plugins: [toDist],
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    logLevel: 'silent',
  });
}

function loadEsbuild() {
  return createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild');
}

const relativeImportsAsJs = {
  name: 'relative-imports-as-js',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => ({
      path: args.path.replace(/\.ts$/, '.js'),
      external: true,
    }));
  },
};
