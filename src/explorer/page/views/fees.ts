/** The fees as quoted, item by item, in the fee token and USD; the gas each transaction used is beside it. */
import type { Catalogue } from '../catalogue.ts';
import { h } from '../dom.ts';
import { formatUsd } from '../format.ts';
import type { Intent } from '../types.ts';
import { amountText } from './common.ts';

export function fees(intent: Intent, originChainId: number, catalogue: Catalogue): HTMLElement {
  const f = intent.fees;
  const inToken = (amount: string) =>
    amountText({ catalogue, chainId: originChainId, token: f.feeTokenAddress, amount });
  const item = (label: string, amount: string, usd: number | string) =>
    h(
      'tr',
      null,
      h('th', { scope: 'row' }, label),
      h('td', null, inToken(amount)),
      h('td', null, formatUsd(Number(usd))),
    );
  return h(
    'table',
    { class: 'fees' },
    h('caption', null, 'Fees as quoted, in the fee token'),
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', { scope: 'col' }, 'Fee'),
        h('th', { scope: 'col' }, 'Amount'),
        h('th', { scope: 'col' }, 'USD'),
      ),
    ),
    h(
      'tbody',
      null,
      item(
        `Gas on ${catalogue.chainName(f.originGas.chainId)}`,
        f.originGas.metaTxnGasQuote,
        f.originGas.totalFeeUsd,
      ),
      f.destinationGas &&
        item(
          `Gas on ${catalogue.chainName(f.destinationGas.chainId)}`,
          f.destinationGas.metaTxnGasQuote,
          f.destinationGas.totalFeeUsd,
        ),
      item('Provider fees (swaps, solver spread)', f.providerFeeTotal, f.providerFeeUsd),
      item('Service fee', f.trailsFeeTotal, f.trailsFeeUsd),
    ),
    h('tfoot', null, item('Total', f.totalFeeAmount, f.totalFeeUsd)),
  );
}
