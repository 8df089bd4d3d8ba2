import type { ApiDeps, Handler } from '../context.ts';

export const createPing =
  (deps: ApiDeps): Handler<'Ping'> =>
  () => ({ version: deps.version });
