/** YieldGetProvider on the wire: one provider by id (case-insensitive), NotFound naming `providerId` otherwise. */
import type { YieldService } from '../../../yield/index.ts';
import type { Handler } from '../../context.ts';
import { toWireProvider } from './to-wire-provider.ts';

export function createYieldGetProvider(service: YieldService): Handler<'YieldGetProvider'> {
  return async ({ providerId }) => ({ provider: toWireProvider(await service.getProvider(providerId)) });
}
