// Compiles src/**/*.ts to plain JavaScript in dist/ (one .js file per source file, same layout, so paths
// taken from import.meta.url still resolve), cached by a hash of the sources. `switchyard` runs the
// compiled files: loading the app through tsx's in-process transpiler (a module-hooks worker thread, the
// transpiled sources and their maps) took ~60 MB of resident memory before the first request
// (docs/benchmarks.md, "Waiting at scale"). esbuild is the one tsx already installs.
//
// The pure-JavaScript packages that ship as hundreds of small ES modules (VENDORED) are bundled once into
// dist/vendor/, and the compiled files import them from there: Node resolves, reads and links every module
// file on its own, and viem, kysely and typebox are ~960 of them, about half of a `serve` start
// (docs/benchmarks.md, "Waiting at scale"). One build with code splitting serves every entry a source
// imports (`viem` and `viem/accounts` alike), so each package's code, and its classes, exist once.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIR = path.join(ROOT, 'src');
const OUT_DIR = path.join(ROOT, 'dist');
const STAMP = '.source-hash';
/** Bump when the compile options change, so an existing dist/ is rebuilt. */
const COMPILE_VERSION = '2';
/** Packages bundled into dist/vendor/ (above): pure JavaScript, no files read next to their code. */
const VENDORED = ['viem', 'kysely', '@sinclair/typebox'];
/** Beside the compiled sources in dist/: no src/vendor/ may exist, its output would land in the same place. */
const VENDOR_DIR = 'vendor';

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
  // A vendored package upgraded by npm makes dist/vendor/ stale as a changed source would.
  for (const name of VENDORED) hash.update(`\0${name}@${vendoredVersion(name)}`);
  return hash.digest('hex');
}

function vendoredVersion(name) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
  } catch {
    return 'missing';
  }
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
  const files = sourceFiles();
  const hash = hashSources(files);
  const target = pathToFileURL(path.join(OUT_DIR, entry.replace(/\.ts$/, '.js'))).href;
  if (readStamp(OUT_DIR) === hash) return target;
  // Loaded only to compile: its JavaScript API is ~20 ms of every start otherwise.
  const esbuild = loadEsbuild();

  const staging = `${OUT_DIR}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    const vendored = new Set();
    await esbuild.build({
      entryPoints: files,
      outbase: SOURCE_DIR,
      outdir: staging,
      // Bundling is only the way to rewrite imports: every import stays external (packages as they are or
      // from dist/vendor/, relative `./x.ts` as `./x.js`), so each source file becomes exactly one output file.
      bundle: true,
      packages: 'external',
      plugins: [relativeImportsAsJs, vendoredImports(vendorFromSource, vendored)],
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      sourcemap: 'linked',
      logLevel: 'silent',
    });
    await bundleVendored(esbuild, [...vendored], staging);
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
  // The script's own imports of vendored packages take dist/vendor/'s copy too (one viem, one kysely), where
  // the sources import the same entry; others stay package imports.
  const fromDist = (specifier) => {
    const file = path.join(OUT_DIR, VENDOR_DIR, `${specifier}.js`);
    return existsSync(file) ? pathToFileURL(file).href : undefined;
  };
  await loadEsbuild().build({
    entryPoints: [entryFile],
    outfile,
    bundle: true,
    packages: 'external',
    plugins: [toDist, vendoredImports(fromDist)],
    format: 'esm',
    platform: 'node',
    target: `node${process.versions.node.split('.')[0]}`,
    logLevel: 'silent',
  });
}

function loadEsbuild() {
  return createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild');
}

/**
 * An import of a vendored package or one of its entries (`viem/accounts`), as `target` names it in the vendor
 * dir (left to the package when `target` gives nothing); each entry taken goes into `seen`.
 */
function vendoredImports(target, seen) {
  const names = VENDORED.map((name) => name.replace(/[/]/g, '\\/')).join('|');
  return {
    name: 'vendored-imports',
    setup(build) {
      build.onResolve({ filter: new RegExp(`^(${names})(/|$)`) }, (args) => {
        const vendored = target(args.path, args.importer);
        if (vendored === undefined) return undefined;
        seen?.add(args.path);
        return { path: vendored, external: true };
      });
    },
  };
}

/** dist/vendor/<specifier>.js relative to a source file's compiled twin (the layout mirrors src/). */
function vendorFromSource(specifier, importer) {
  const relative = path
    .relative(path.dirname(importer), path.join(SOURCE_DIR, VENDOR_DIR, `${specifier}.js`))
    .split(path.sep)
    .join('/');
  return relative.startsWith('.') ? relative : `./${relative}`;
}

/**
 * One esbuild build of every vendored entry the sources import, into <outDir>/vendor/<specifier>.js, with
 * the code they share in common chunks beside them. Each entry is a one-line re-export written into the
 * staging dir (inside the project, so the packages resolve from its node_modules) and removed afterwards.
 */
async function bundleVendored(esbuild, specifiers, outDir) {
  if (specifiers.length === 0) return;
  const stubs = path.join(outDir, '.vendor-entries');
  mkdirSync(stubs, { recursive: true });
  const entryPoints = specifiers.sort().map((specifier, index) => {
    const stub = path.join(stubs, `${index}.js`);
    writeFileSync(stub, `export * from ${JSON.stringify(specifier)};\n`);
    return { in: stub, out: specifier };
  });
  try {
    await esbuild.build({
      entryPoints,
      outdir: path.join(outDir, VENDOR_DIR),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: `node${process.versions.node.split('.')[0]}`,
      logLevel: 'silent',
    });
  } finally {
    rmSync(stubs, { recursive: true, force: true });
  }
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
