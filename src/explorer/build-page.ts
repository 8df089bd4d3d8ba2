/**
 * Bundles the explorer page (src/explorer/page/, plain DOM in TypeScript, and its stylesheet) with the
 * esbuild the project already has, in memory, the first time a page is asked for: a server nobody opens the
 * explorer on never loads esbuild. Nothing comes from a CDN; the bundle is the whole page, so it works
 * offline. The sources are found from the package root, so this works from src/ (tsx) and dist/ alike.
 */
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

/** Browsers the page is built for: every evergreen browser of the last few years, phones included. */
const BROWSER_TARGETS = ['chrome100', 'firefox100', 'safari15', 'edge100'];
/** Characters of the content hash in an asset's name: plenty to tell builds apart. */
const HASH_CHARS = 12;

export interface PageAsset {
  /** The file name it is served under, with its content hash. */
  name: string;
  contentType: string;
  body: string;
}

export interface PageBundle {
  script: PageAsset;
  stylesheet: PageAsset;
}

export function createPageBuilder(): { bundle(): Promise<PageBundle> } {
  let built: Promise<PageBundle> | undefined;
  return {
    bundle() {
      built ??= buildPage().catch((error: unknown) => {
        // A failed build is not kept: the next page request tries again.
        built = undefined;
        throw error;
      });
      return built;
    },
  };
}

async function buildPage(): Promise<PageBundle> {
  const { default: esbuild } = await import('esbuild');
  const pageDir = fileURLToPath(new URL('../../src/explorer/page/', import.meta.url));
  const result = await esbuild.build({
    entryPoints: { app: `${pageDir}main.ts`, styles: `${pageDir}styles.css` },
    bundle: true,
    write: false,
    outdir: 'out',
    format: 'esm',
    platform: 'browser',
    target: BROWSER_TARGETS,
    minify: true,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const output = (ext: string) => {
    const file = result.outputFiles.find((f) => f.path.endsWith(ext));
    if (!file) throw new Error(`the explorer build produced no ${ext} file`);
    return file.text;
  };
  return {
    script: asset('app', '.js', 'text/javascript; charset=utf-8', output('.js')),
    stylesheet: asset('app', '.css', 'text/css; charset=utf-8', output('.css')),
  };
}

function asset(stem: string, ext: string, contentType: string, body: string): PageAsset {
  const hash = createHash('sha256').update(body).digest('hex').slice(0, HASH_CHARS);
  return { name: `${stem}.${hash}${ext}`, contentType, body };
}
