/** What RuntimeStatus says: the service's health, and each chain's RPC and the database, refreshed while open. */
import { h, replace } from '../dom.ts';
import { formatDuration, formatTime } from '../format.ts';
import type { RuntimeStatus } from '../types.ts';
import type { ViewContext } from '../view-context.ts';
import { errorBox, loading } from './common.ts';

/** How often the open health page asks again (ms): the server shares its probes for a second anyway. */
const REFRESH_MS = 10_000;

export async function chainHealth(ctx: ViewContext, main: HTMLElement): Promise<void> {
  const body = h('div', null, loading('the status'));
  replace(main, h('h1', { tabindex: -1 }, 'Chain health'), body);
  for (;;) {
    try {
      const { status } = await ctx.api.call<{ status: RuntimeStatus }>('RuntimeStatus', {}, ctx.signal);
      replace(body, ...render(ctx, status));
    } catch (error) {
      if (ctx.signal.aborted) return;
      replace(body, errorBox(error));
    }
    if (ctx.signal.aborted) return;
    await new Promise((resolve) => setTimeout(resolve, REFRESH_MS));
    if (ctx.signal.aborted) return;
  }
}

function render(ctx: ViewContext, status: RuntimeStatus): HTMLElement[] {
  const name = (service: string) => {
    const chain = /^chain:(\d+)$/.exec(service);
    return chain ? `${ctx.catalogue.chainName(Number(chain[1]))} (${chain[1]})` : service;
  };
  return [
    h(
      'p',
      { class: 'status-line' },
      'Service: ',
      h(
        'span',
        { class: `badge ${status.healthOK ? 'badge-succeeded' : 'badge-failed'}` },
        status.healthOK ? 'HEALTHY' : 'DEGRADED',
      ),
      ` version ${status.version}, up ${formatDuration(status.uptimeSeconds * 1000)} since ${formatTime(status.startTime)}`,
    ),
    h(
      'table',
      { class: 'health' },
      h('caption', null, 'Each chain’s RPC endpoint and the database'),
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          ['Service', 'Health', 'Latency', 'Error'].map((t) => h('th', { scope: 'col' }, t)),
        ),
      ),
      h(
        'tbody',
        null,
        status.services.map((s) =>
          h(
            'tr',
            { 'data-service': s.name },
            h('th', { scope: 'row' }, name(s.name)),
            h(
              'td',
              null,
              h(
                'span',
                { class: `badge ${s.healthy ? 'badge-succeeded' : 'badge-failed'}` },
                s.healthy ? 'HEALTHY' : 'DOWN',
              ),
            ),
            h('td', null, s.latency),
            h('td', null, s.error ?? ''),
          ),
        ),
      ),
    ),
  ];
}
