/**
 * The frame around every view: a skip link, the name, navigation, the search form, the access key form, a
 * polite live region for announcements, and <main> where the views draw.
 */
import { h, replace } from './dom.ts';
import { BASE, paths } from './router.ts';
import { link } from './views/common.ts';

export interface Frame {
  main: HTMLElement;
  live: HTMLElement;
  keyInput: HTMLInputElement;
}

export interface FrameActions {
  search(query: string): void;
  useKey(key: string): void;
  forgetKey(): void;
}

export function drawFrame(root: HTMLElement, actions: FrameActions): Frame {
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
  const submitted = (read: () => string, act: (value: string) => void) => (event: Event) => {
    event.preventDefault();
    const value = read().trim();
    if (value) act(value);
  };
  const searchForm = h(
    'form',
    { role: 'search', class: 'search-form', onsubmit: submitted(() => searchInput.value, actions.search) },
    h('label', { for: 'search' }, 'Search'),
    searchInput,
    h('button', { type: 'submit' }, 'Search'),
  );
  const keyForm = h(
    'form',
    { class: 'key-form', onsubmit: submitted(() => keyInput.value, actions.useKey) },
    h('label', { for: 'access-key' }, 'Access key'),
    keyInput,
    h('button', { type: 'submit' }, 'Use key'),
    h('button', { type: 'button', class: 'secondary', onclick: () => actions.forgetKey() }, 'Forget key'),
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
  return { main, live, keyInput };
}
