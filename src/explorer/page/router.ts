/**
 * Page paths under /explorer (the History API, so every view has a link a person can share):
 *   /explorer                                   latest intents (?status=&origin=&destination=)
 *   /explorer/search?q=…                        search: intent id, transaction hash, owner or intent address
 *   /explorer/intents/<intentId>                one intent
 *   /explorer/chains/<chainId>/tx/<hash>        a transaction: the intent it belongs to (block explorer links)
 *   /explorer/chains/<chainId>/address/<addr>   an address: the intents it owns or is
 *   /explorer/health                            chain health (RuntimeStatus)
 */
export type Route =
  | { view: 'list'; status?: string; origin?: number; destination?: number }
  | { view: 'search'; query: string }
  | { view: 'intent'; intentId: string }
  | { view: 'transaction'; chainId: number; hash: string }
  | { view: 'address'; chainId: number; address: string }
  | { view: 'health' }
  | { view: 'missing'; path: string };

export const BASE = '/explorer';

export function routeOf(location: Location): Route {
  const path = location.pathname.replace(/\/+$/, '');
  const rest = path.startsWith(BASE) ? path.slice(BASE.length) : path;
  const params = new URLSearchParams(location.search);
  const parts = rest.split('/').filter(Boolean).map(decodeURIComponent);
  const number = (value: string | null) => (value && /^\d+$/.test(value) ? Number(value) : undefined);
  if (parts.length === 0) {
    return {
      view: 'list',
      ...(params.get('status') && { status: params.get('status')! }),
      ...(number(params.get('origin')) !== undefined && { origin: number(params.get('origin'))! }),
      ...(number(params.get('destination')) !== undefined && {
        destination: number(params.get('destination'))!,
      }),
    };
  }
  const [first, second, third, fourth] = parts;
  if (first === 'search' && parts.length === 1) return { view: 'search', query: params.get('q') ?? '' };
  if (first === 'health' && parts.length === 1) return { view: 'health' };
  if (first === 'intents' && second && parts.length === 2) return { view: 'intent', intentId: second };
  const chainId = number(second ?? null);
  if (first === 'chains' && chainId !== undefined && fourth && parts.length === 4) {
    if (third === 'tx') return { view: 'transaction', chainId, hash: fourth };
    if (third === 'address') return { view: 'address', chainId, address: fourth };
  }
  return { view: 'missing', path };
}

export const paths = {
  list: (filters: { status?: string; origin?: number; destination?: number } = {}) => {
    const query = new URLSearchParams();
    if (filters.status) query.set('status', filters.status);
    if (filters.origin !== undefined) query.set('origin', String(filters.origin));
    if (filters.destination !== undefined) query.set('destination', String(filters.destination));
    const text = query.toString();
    return text ? `${BASE}?${text}` : BASE;
  },
  search: (query: string) => `${BASE}/search?q=${encodeURIComponent(query)}`,
  intent: (intentId: string) => `${BASE}/intents/${intentId}`,
  transaction: (chainId: number, hash: string) => `${BASE}/chains/${chainId}/tx/${hash}`,
  health: () => `${BASE}/health`,
};
