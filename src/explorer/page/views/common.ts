/** Pieces every view uses: links, status badges, amounts, errors. */
import { ApiError } from '../api.ts';
import type { Catalogue } from '../catalogue.ts';
import { type Child, h } from '../dom.ts';
import { formatUnits, formatUsd, unitsAsNumber } from '../format.ts';

/** A link inside the explorer: followed without a reload (main.ts intercepts `data-link`). */
export function link(path: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href: path, 'data-link': true }, ...children);
}

/** The status as a word with its colour; the word carries the meaning, the colour only repeats it. */
export function statusBadge(status: string): HTMLElement {
  return h('span', { class: `badge badge-${status.toLowerCase()}`, 'data-status': status }, status);
}

/** A hash or address in full, in a monospace face that wraps on a phone. */
export function hex(value: string): HTMLElement {
  return h('code', { class: 'hex' }, value);
}

export interface AmountOptions {
  catalogue: Catalogue;
  chainId: number;
  token: string;
  amount: string;
  /** USD per whole token, when known. */
  priceUsd?: number | undefined;
}

/** `100 USDC ($100.00)`, or base units and the token's address for a token the server does not list. */
export function amountText({ catalogue, chainId, token, amount, priceUsd }: AmountOptions): string {
  const info = catalogue.token(chainId, token);
  if (!info) return `${amount} base units of ${token}`;
  const text = `${formatUnits(amount, info.decimals)} ${info.symbol}`;
  if (priceUsd === undefined) return text;
  return `${text} (${formatUsd(unitsAsNumber(amount, info.decimals) * priceUsd)})`;
}

export function errorBox(error: unknown): HTMLElement {
  const message =
    error instanceof ApiError
      ? `${error.error}: ${error.message}`
      : error instanceof Error
        ? error.message
        : String(error);
  return h('p', { class: 'error', role: 'alert' }, message);
}

export function loading(what: string): HTMLElement {
  return h('p', { class: 'loading', role: 'status' }, `Loading ${what}…`);
}

/** A term and its description, for the <dl> lists that stack on a phone. */
export function row(term: string, ...description: Child[]): Child[] {
  return [h('dt', null, term), h('dd', null, ...description)];
}
