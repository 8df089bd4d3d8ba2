/**
 * The explorer page: the frame (frame.ts), then the view of the current path (router.ts). A view is left
 * by aborting its signal, which stops its live updates and refreshes.
 */
import { devnetKey, forgetKey, storedKey, storeKey } from './access-key.ts';
import { createApi } from './api.ts';
import { type Catalogue, loadCatalogue } from './catalogue.ts';
import { h, replace } from './dom.ts';
import { drawFrame } from './frame.ts';
import { paths, type Route, routeOf } from './router.ts';
import type { ViewContext } from './view-context.ts';
import { chainHealth } from './views/chain-health.ts';
import { errorBox, loading } from './views/common.ts';
import { intentList } from './views/intent-list.ts';
import { intentPage } from './views/intent-page.ts';
import { searchResults } from './views/search-results.ts';

interface Session {
  key: string;
  catalogue: Promise<Catalogue>;
}

function start(root: HTMLElement): void {
  let session: Session | undefined;
  let current: AbortController | undefined;
  const frame = drawFrame(root, {
    search: (query) => navigate(paths.search(query)),
    useKey: (key) => {
      storeKey(key);
      use(key);
      void show(true);
    },
    forgetKey: () => {
      forgetKey();
      session = undefined;
      frame.keyInput.value = '';
      void show(true);
    },
  });
  const { main, keyInput } = frame;
  const use = (key: string) => {
    session = { key, catalogue: loadCatalogue(createApi(key)) };
    keyInput.value = key;
  };
  const navigate = (path: string, options: { replace?: boolean } = {}) => {
    if (options.replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    void show(true);
  };
  const heading = (text: string) => h('h1', { tabindex: -1 }, text);

  const show = async (moveFocus: boolean) => {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    const route = routeOf(location);
    document.title = `${titleOf(route)} · Switchyard explorer`;
    if (!session && route.view !== 'health') {
      const why = 'Enter your project’s access key above: the explorer shows that project’s intents only.';
      replace(main, heading('Access key needed'), h('p', null, why));
      keyInput.focus();
      return;
    }
    replace(main, loading('the page'));
    let catalogue: Catalogue;
    try {
      catalogue = session ? await session.catalogue : emptyCatalogue();
    } catch (error) {
      replace(main, heading('The access key was not accepted'), errorBox(error));
      keyInput.focus();
      return;
    }
    if (controller.signal.aborted) return;
    const ctx: ViewContext = {
      api: createApi(session?.key ?? ''),
      catalogue,
      navigate,
      signal: controller.signal,
      announce: (text) => {
        frame.live.textContent = text;
      },
    };
    const rendered = render(ctx, route, main);
    if (moveFocus) main.querySelector<HTMLElement>('h1')?.focus();
    await rendered;
    if (moveFocus && !controller.signal.aborted) main.querySelector<HTMLElement>('h1')?.focus();
  };

  const initial = storedKey() ?? devnetKey();
  if (initial) {
    storeKey(initial);
    use(initial);
  }
  // Links inside the explorer change the view without a reload.
  document.addEventListener('click', (event) => {
    const anchor = (event.target as Element | null)?.closest?.('a[data-link]') as HTMLAnchorElement | null;
    if (!anchor || event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(anchor.pathname + anchor.search + anchor.hash);
  });
  window.addEventListener('popstate', () => void show(true));
  void show(false);
}

function render(ctx: ViewContext, route: Route, main: HTMLElement): Promise<void> {
  switch (route.view) {
    case 'list':
      return intentList(ctx, main, route);
    case 'search':
      return searchResults(ctx, main, route.query);
    case 'intent':
      return intentPage(ctx, main, route.intentId, highlightOf(location.hash));
    case 'transaction':
      return searchResults(ctx, main, route.hash, `Transaction ${route.hash}`);
    case 'address':
      return searchResults(ctx, main, route.address, `Address ${route.address}`);
    case 'health':
      return chainHealth(ctx, main);
    case 'missing':
      replace(main, h('h1', { tabindex: -1 }, 'No such page'), h('p', null, `Nothing is at ${route.path}.`));
      return Promise.resolve();
  }
}

function highlightOf(fragment: string): string | undefined {
  return /^#tx-(0x[0-9a-fA-F]{64})$/.exec(fragment)?.[1];
}

function titleOf(route: Route): string {
  switch (route.view) {
    case 'list':
      return 'Latest intents';
    case 'search':
      return `Search ${route.query}`;
    case 'intent':
      return `Intent ${route.intentId.slice(0, 10)}`;
    case 'transaction':
      return `Transaction ${route.hash.slice(0, 10)}`;
    case 'address':
      return `Address ${route.address.slice(0, 10)}`;
    case 'health':
      return 'Chain health';
    case 'missing':
      return 'Not found';
  }
}

/** The health page is public: without a key it shows chain ids instead of names. */
function emptyCatalogue(): Catalogue {
  return { chains: [], chainName: (id) => `chain ${id}`, token: () => undefined };
}

const root = document.getElementById('app');
if (root) start(root);
