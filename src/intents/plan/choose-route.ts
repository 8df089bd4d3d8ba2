/**
 * `options.preference`: which of the routes the planner found it quotes (docs/routing.md, "Route preference").
 *
 * - RECOMMENDED (and no preference): the first route found, in resolve-route.ts's order; the others are not
 *   even quoted, so this costs nothing.
 * - CHEAPEST: every route is quoted and the one that leaves the owner the most wins: the largest `toAmount`
 *   for EXACT_INPUT, the smallest deposit for EXACT_OUTPUT (every fee, gas included, is already taken out of
 *   those, and all routes of a request share their origin and destination token, so they compare exactly).
 * - FASTEST: the route with the shortest estimated duration. The routes here share their transactions
 *   (origin, fill, destination) and so their duration; what still differs is the work inside them: the one
 *   with the fewest legs wins (a swap leg is one more call that a price move can make revert; a split leg
 *   is one), then the one with the least gas, and a tie goes to the cheapest.
 * - TRUSTLESS: a route that trusts nobody. A route on one chain does; every route across chains is settled
 *   on the attester's word (docs/contracts.md, "The one trust assumption"), so across chains it is refused.
 *
 * A route that cannot be quoted (a pool too shallow, the solver short of its token) is left out; when none
 * can, the first route's refusal is the answer, as RECOMMENDED would give it.
 */
import type { RoutePreference } from '../intent-document.ts';
import { UnsupportedRouteError } from './errors.ts';
import type { ExecutionPlan } from './types.ts';

/** Whether the preference needs the routes after the first one. */
export function wantsAlternatives(preference: RoutePreference | undefined): boolean {
  return preference === 'CHEAPEST' || preference === 'FASTEST';
}

export function checkTrustless(preference: RoutePreference | undefined, crossChain: boolean): void {
  if (preference !== 'TRUSTLESS' || !crossChain) return;
  throw new UnsupportedRouteError(
    'options.preference: TRUSTLESS has no route across chains here: every cross-chain route is settled on the attester’s signature; use RECOMMENDED, CHEAPEST or FASTEST',
    { details: { field: 'options.preference' } },
  );
}

export function choosePlan(
  settled: readonly PromiseSettledResult<ExecutionPlan>[],
  preference: RoutePreference | undefined,
): ExecutionPlan {
  const plans = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const [first, ...rest] = plans;
  if (!first) throw (settled[0] as PromiseRejectedResult).reason;
  const better = preference === 'FASTEST' ? isFaster : preference === 'CHEAPEST' ? isCheaper : undefined;
  if (!better) return first;
  return rest.reduce((best, plan) => (better(plan, best) ? plan : best), first);
}

/** Strictly better for the owner: more out for the same deposit, or the same out for less. */
function isCheaper(a: ExecutionPlan, b: ExecutionPlan): boolean {
  if (a.tradeType === 'EXACT_INPUT') return a.amounts.toAmount > b.amounts.toAmount;
  return a.amounts.depositAmount < b.amounts.depositAmount;
}

function isFaster(a: ExecutionPlan, b: ExecutionPlan): boolean {
  if (a.estimatedDuration !== b.estimatedDuration) return a.estimatedDuration < b.estimatedDuration;
  const [legsA, legsB] = [legCount(a), legCount(b)];
  if (legsA !== legsB) return legsA < legsB;
  const [gasA, gasB] = [totalGas(a), totalGas(b)];
  if (gasA !== gasB) return gasA < gasB;
  return isCheaper(a, b);
}

/**
 * A swap leg split across protocols names each in routeProviders, but its parts run in one call of the same
 * transaction: it counts as one leg.
 */
function legCount(plan: ExecutionPlan): number {
  const splitExtras = (plan.swapRoutes ?? []).reduce(
    (n, route) => n + new Set(route.parts.map((part) => part.provider)).size - 1,
    0,
  );
  return plan.routeProviders.length - splitExtras;
}

const totalGas = (plan: ExecutionPlan) =>
  plan.fees.originGas.gasLimit + (plan.fees.destinationGas?.gasLimit ?? 0n);
