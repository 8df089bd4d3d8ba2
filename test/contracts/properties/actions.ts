/**
 * The actions a property run is made of, and their fast-check arbitrary. Every action can run in any state:
 * the model predicts whether it succeeds or which custom error it reverts with.
 */
import fc from 'fast-check';
import type { Actor } from './world.ts';

export type RouteIndex = 0 | 1;
export type DepositVariant = 'exact' | 'under' | 'over' | 'wrongToken' | 'dust' | 'wrongChain' | 'lateToDest';
export type SettleProof = 'attested' | 'relayerSigned' | 'redirected';
export type RefundWhere = 'originA' | 'destB' | 'originB';
export type Boundary = 'deadline-1' | 'deadline' | 'refundable' | 'refundable+1';
export type TokenName = 'usdc' | 'dai';

export type Action =
  | { kind: 'deposit'; route: RouteIndex; variant: DepositVariant; permille: number }
  | { kind: 'executeOrigin'; route: RouteIndex; actor: Actor }
  | { kind: 'executeOriginWrongChain'; route: RouteIndex; actor: Actor }
  | { kind: 'fill'; route: RouteIndex; actor: 'solver' | 'stranger'; repayTo: 'solver' | 'treasury' }
  | { kind: 'executeDest'; route: RouteIndex; actor: Actor }
  | { kind: 'settle'; route: RouteIndex; actor: Actor; proof: SettleProof }
  | { kind: 'orderRefund'; route: RouteIndex; actor: Actor }
  | { kind: 'accountRefund'; route: RouteIndex; where: RefundWhere; actor: Actor; tokens: TokenName[] }
  /** The natural next step of a route (deposit, execute O, fill, execute D, settle): drives runs deep. */
  | { kind: 'progress'; route: RouteIndex }
  | { kind: 'warpSeconds'; chains: 'a' | 'b' | 'both'; seconds: number }
  | { kind: 'warpTo'; chains: 'a' | 'b' | 'both'; route: RouteIndex; boundary: Boundary };

/** Largest random warp: 10 minutes, so a run of ~25 actions usually crosses some (not all) deadlines. */
const MAX_WARP_SECONDS = 600;
/** Actions per run: enough for a route to go deposit → execute → fill → settle with noise in between. */
export const MIN_ACTIONS = 6;
export const MAX_ACTIONS = 28;

const route = fc.constantFrom<RouteIndex>(0, 1);
const anyActor = fc.constantFrom<Actor>('relayer', 'solver', 'stranger', 'owner');
/** Mostly the actor who would do it in practice, sometimes anyone else. */
const mostly = <T extends Actor>(usual: T) =>
  fc.oneof({ weight: 3, arbitrary: fc.constant<Actor>(usual) }, { weight: 2, arbitrary: anyActor });

const deposit = fc.record({
  kind: fc.constant('deposit' as const),
  route,
  variant: fc.constantFrom<DepositVariant>(
    'exact',
    'exact',
    'exact',
    'under',
    'over',
    'over',
    'wrongToken',
    'dust',
    'wrongChain',
    'lateToDest',
  ),
  permille: fc.integer({ min: 1, max: 999 }),
});
const executeOrigin = fc.record({
  kind: fc.constant('executeOrigin' as const),
  route,
  actor: mostly('relayer'),
});
const executeOriginWrongChain = fc.record({
  kind: fc.constant('executeOriginWrongChain' as const),
  route,
  actor: anyActor,
});
const fill = fc.record({
  kind: fc.constant('fill' as const),
  route,
  actor: fc.constantFrom<'solver' | 'stranger'>('solver', 'solver', 'solver', 'stranger'),
  repayTo: fc.constantFrom<'solver' | 'treasury'>('solver', 'treasury'),
});
const executeDest = fc.record({ kind: fc.constant('executeDest' as const), route, actor: anyActor });
const settle = fc.record({
  kind: fc.constant('settle' as const),
  route,
  actor: anyActor,
  proof: fc.constantFrom<SettleProof>('attested', 'attested', 'attested', 'relayerSigned', 'redirected'),
});
const orderRefund = fc.record({ kind: fc.constant('orderRefund' as const), route, actor: anyActor });
const accountRefund = fc.record({
  kind: fc.constant('accountRefund' as const),
  route,
  where: fc.constantFrom<RefundWhere>('originA', 'originA', 'destB', 'originB'),
  actor: mostly('owner'),
  tokens: fc.subarray<TokenName>(['usdc', 'dai', 'usdc']),
});
const chains = fc.constantFrom<'a' | 'b' | 'both'>('both', 'both', 'a', 'b');
const warpSeconds = fc.record({
  kind: fc.constant('warpSeconds' as const),
  chains,
  seconds: fc.integer({ min: 1, max: MAX_WARP_SECONDS }),
});
const warpTo = fc.record({
  kind: fc.constant('warpTo' as const),
  chains,
  route,
  boundary: fc.constantFrom<Boundary>('deadline-1', 'deadline', 'refundable', 'refundable+1'),
});

const progress = fc.record({ kind: fc.constant('progress' as const), route });

export const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 8, arbitrary: progress },
  { weight: 4, arbitrary: deposit },
  { weight: 4, arbitrary: executeOrigin },
  { weight: 1, arbitrary: executeOriginWrongChain },
  { weight: 4, arbitrary: fill },
  { weight: 3, arbitrary: executeDest },
  { weight: 4, arbitrary: settle },
  { weight: 2, arbitrary: orderRefund },
  { weight: 3, arbitrary: accountRefund },
  { weight: 2, arbitrary: warpSeconds },
  { weight: 2, arbitrary: warpTo },
);

export const actionsArb = fc.array(actionArb, { minLength: MIN_ACTIONS, maxLength: MAX_ACTIONS });
