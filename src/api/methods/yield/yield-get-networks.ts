/** YieldGetNetworks on the wire: the chains that have markets, by the name markets carry as `network`. */
import type { YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';

export function createYieldGetNetworks(service: YieldService): Handler<'YieldGetNetworks'> {
  return () => ({
    networks: service.networks.map((n) => ({
      id: n.id,
      name: n.name,
      category: 'evm',
      logoURI: '',
      chainId: String(n.chainId),
    })),
  });
}
