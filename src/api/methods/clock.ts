import type { ApiDeps, Handler } from '../context.ts';

export const createClock =
  (deps: ApiDeps): Handler<'Clock'> =>
  () => ({ serverTime: deps.now().toISOString() });
