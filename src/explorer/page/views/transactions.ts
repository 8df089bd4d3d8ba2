/**
 * Each transaction of the receipt: chain, hash, block, gas (used × price = fee, in the native currency and
 * USD), the amount moved in the token and USD, from and to, status and reason.
 */
import type { Catalogue } from '../catalogue.ts';
import { h } from '../dom.ts';
import { formatGwei, formatTime } from '../format.ts';
import type { PriceUsd } from '../prices.ts';
import type { IntentDetails, IntentReceipt } from '../types.ts';
import { amountText, hex, row, statusBadge } from './common.ts';

const NATIVE = '0x0000000000000000000000000000000000000000';
const KINDS = ['deposit', 'origin', 'destination', 'refund'] as const;
const TITLES = { deposit: 'Deposit', origin: 'Origin', destination: 'Destination', refund: 'Refund' };

export function transactions(
  receipt: IntentReceipt,
  details: IntentDetails | undefined,
  catalogue: Catalogue,
  price: PriceUsd,
  highlight: string | undefined,
): HTMLElement[] {
  return KINDS.flatMap((kind) => {
    const t = receipt[`${kind}Transaction`];
    if (!t) return [];
    const chain = catalogue.chainName(t.chainId);
    const onChain = details?.transactions.find((d) => d.kind === kind && d.hash === t.txnHash);
    const amount = amountText({
      catalogue,
      chainId: t.chainId,
      token: t.tokenAddress,
      amount: t.tokenAmount,
      priceUsd: price(t.chainId, t.tokenAddress),
    });
    const gas =
      onChain?.gasUsed && onChain.effectiveGasPrice && onChain.feeNative
        ? `${BigInt(onChain.gasUsed).toLocaleString('en-US')} gas × ${formatGwei(onChain.effectiveGasPrice)} = ${amountText(
            {
              catalogue,
              chainId: t.chainId,
              token: NATIVE,
              amount: onChain.feeNative,
              priceUsd: price(t.chainId, NATIVE),
            },
          )}`
        : undefined;
    const highlighted = highlight !== undefined && t.txnHash?.toLowerCase() === highlight.toLowerCase();
    return [
      h(
        'section',
        {
          class: highlighted ? 'transaction highlighted' : 'transaction',
          'aria-labelledby': `tx-title-${kind}`,
          'data-kind': kind,
          ...(t.txnHash && { id: `tx-${t.txnHash.toLowerCase()}` }),
        },
        h('h3', { id: `tx-title-${kind}` }, `${TITLES[kind]} `, statusBadge(t.status)),
        h(
          'dl',
          null,
          row('Chain', `${chain} (${t.chainId})`),
          row('Hash', t.txnHash ? hex(t.txnHash) : 'not sent yet'),
          row('Block', onChain?.blockNumber ?? (t.txnHash ? 'not mined yet' : '—')),
          row('Gas', gas ?? '—'),
          row('Amount', amount),
          row('From', hex(t.fromAddress)),
          row('To', hex(t.toAddress)),
          t.txnMinedAt && row('Mined', formatTime(t.txnMinedAt)),
          t.statusReason && row('Note', t.statusReason),
        ),
      ),
    ];
  });
}
