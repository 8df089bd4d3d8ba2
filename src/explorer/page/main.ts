/**
 * The explorer page: the frame (search, access key, navigation), then the view of the current path
 * (router.ts). Views are left by aborting their signal, which stops their live updates and refreshes.
 */

import { devnetKey, forgetKey, storedKey, storeKey } from './access-key.ts';
import { createApi } from './api.ts';
import { type Catalogue, loadCatalogue } from './catalogue.ts';
import { h, replace } from './dom.ts';
import { BASE, paths, type Route, routeOf } from './router.ts';
import type { ViewContext } from './view-context.ts';
import { chainHealth } from './views/chain-health.ts';
import { errorBox, link, loading } from './views/common.ts';
import { intentList } from './views/intent-list.ts';
import { intentPage } from './views/intent-page.ts';
import { searchResults } from './views/search-results.ts';

interface Session {
  key: string;
  catalogue: Promise<Catalogue>;
}

function start(): void {
  const root = document.getElementById('app');
  if (!root) return;
  const main = h('main', { id: 'main', tabindex: -1 });
  const live = h('div', { class: 'visually-hidden', 'aria-live': 'polite', role: 'status' });
  const keyInput = h('input', {
    id: 'access-key',
    name: 'accessKey',
    type: 'password',
    autocomplete: 'off',
    spellcheck: 'false',
    required: true,
  });
  const searchInput = h('input', {
    id: 'search',
    name: 'q',
    type: 'search',
    autocomplete: 'off',
    spellcheck: 'false',
    placeholder: 'Intent id, transaction hash or address',
  });
  let session: Session | undefined;
  let current: AbortController | undefined;

  const use = (key: string) => {
    const api = createApi(key);
    session = { key, catalogue: loadCatalogue(api) };
    keyInput.value = key;
  };
  const initial = storedKey() ?? devnetKey();
  if (initial) {
    storeKey(initial);
    use(initial);
  }

  const navigate = (path: string, options: { replace?: boolean } = {}) => {
    if (options.replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    void show(true);
  };

  const show = async (moveFocus: boolean) => {
    current?.abort();
    const controller = new AbortController();
    current = controller;
    const route = routeOf(location);
    document.title = `${titleOf(route)} · Switchyard explorer`;
    if (!session && route.view !== 'health') {
      replace(
        main,
        h('h1', { tabindex: -1 }, 'Access key needed'),
        h(
          'p',
          null,
          'Enter your project’s access key above: the explorer shows that project’s intents only.',
        ),
      );
      keyInput.focus();
      return;
    }
    replace(main, loading('the page'));
    let catalogue: Catalogue;
    try {
      catalogue = session ? await session.catalogue : emptyCatalogue();
    } catch (error) {
      replace(main, h('h1', { tabindex: -1 }, 'The access key was not accepted'), errorBox(error));
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
        live.textContent = text;
      },
    };
    const rendered = render(ctx, route);
    if (moveFocus) main.querySelector<HTMLElement>('h1')?.focus();
    await rendered;
    if (moveFocus && !controller.signal.aborted) main.querySelector<HTMLElement>('h1')?.focus();
  };

  const keyForm = h(
    'form',
    {
      class: 'key-form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const key = keyInput.value.trim();
        if (!key) return;
        storeKey(key);
        use(key);
        void show(true);
      },
    },
    h('label', { for: 'access-key' }, 'Access key'),
    keyInput,
    h('button', { type: 'submit' }, 'Use key'),
    h(
      'button',
      {
        type: 'button',
        class: 'secondary',
        onclick: () => {
          forgetKey();
          session = undefined;
          keyInput.value = '';
          void show(true);
        },
      },
      'Forget key',
    ),
  );
  const searchForm = h(
    'form',
    {
      role: 'search',
      class: 'search-form',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const query = searchInput.value.trim();
        if (query) navigate(paths.search(query));
      },
    },
    h('label', { for: 'search' }, 'Search'),
    searchInput,
    h('button', { type: 'submit' }, 'Search'),
  );

  replace(
    root,
    h('a', { class: 'skip-link', href: '#main' }, 'Skip to content'),
    h(
      'header',
      { class: 'top' },
      h(
        'div',
        { class: 'brand-row' },
        link(BASE, h('span', { class: 'brand' }, 'Switchyard explorer')),
        h(
          'nav',
          { 'aria-label': 'Explorer' },
          link(paths.list(), 'Intents'),
          link(paths.health(), 'Chain health'),
        ),
      ),
      searchForm,
      keyForm,
    ),
    live,
    main,
  );

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

function render(ctx: ViewContext, route: Route): Promise<void> {
  const main = document.getElementById('main')!;
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
  const match = /^#tx-(0x[0-9a-fA-F]{64})$/.exec(fragment);
  return match?.[1];
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

start();
