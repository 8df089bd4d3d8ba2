import { describe, expect, it } from 'vitest';
import { createPlanLoader, loadPlan } from '../../src/engine/load-plan.ts';
import type { ExecutionPlan } from '../../src/intents/plan/types.ts';
import { encodePlan } from '../../src/intents/plan-codec.ts';
import type { IntentRecord } from '../../src/store/types.ts';

const plan = (deadline: bigint) =>
  ({
    kind: 'cross-chain',
    origin: {
      address: '0x00000000000000000000000000000000000000aa',
      intent: { chainId: 1n, deadline, calls: [{ value: 0n }] },
    },
  }) as unknown as ExecutionPlan;

const record = (intentId: string, planJson: string | null) =>
  ({ intentId, status: 'EXECUTING', planJson }) as IntentRecord;

describe('createPlanLoader', () => {
  it('decodes a plan once and hands every later step the same plan, equal to loadPlan', () => {
    const plans = createPlanLoader();
    const intent = record('0x01', encodePlan(plan(5n)));
    const first = plans.load(intent);
    expect(first).toEqual(loadPlan(intent));
    expect(plans.load({ ...intent, planJson: encodePlan(plan(5n)) })).toBe(first);
  });

  it('freezes what it shares, so a step cannot change the plan the next step reads', () => {
    const shared = createPlanLoader().load(record('0x02', encodePlan(plan(5n))));
    expect(Object.isFrozen(shared.origin.intent.calls[0])).toBe(true);
    expect(() => {
      (shared.origin.intent as { deadline: bigint }).deadline = 9n;
    }).toThrow(TypeError);
  });

  it('decodes again when the stored text differs, and forgets the least recently used', () => {
    const plans = createPlanLoader(2);
    const a = plans.load(record('0xa', encodePlan(plan(1n))));
    expect(plans.load(record('0xa', encodePlan(plan(2n)))).origin.intent.deadline).toBe(2n);
    const b = plans.load(record('0xb', encodePlan(plan(3n))));
    plans.load(record('0xa', encodePlan(plan(2n)))); // a used last: b is the oldest
    plans.load(record('0xc', encodePlan(plan(4n))));
    expect(plans.load(record('0xb', encodePlan(plan(3n))))).not.toBe(b);
    expect(a.origin.intent.deadline).toBe(1n);
  });

  it('refuses an intent without a plan, as loadPlan does', () => {
    expect(() => createPlanLoader().load(record('0x03', null))).toThrow(/no execution plan/);
  });
});
