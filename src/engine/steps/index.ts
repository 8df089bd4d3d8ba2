/** Every step of the engine by name; the journal stores these names. */
import type { StepDefinition } from '../context.ts';
import { destinationRefundStep } from '../refunds/destination-refund.ts';
import { orderRefundStep } from '../refunds/order-refund.ts';
import { originRefundStep } from '../refunds/origin-refund.ts';
import { depositStep } from './deposit.ts';
import { destinationStep } from './destination.ts';
import { fillStep } from './fill.ts';
import { originStep } from './origin.ts';
import { settleStep } from './settle.ts';

export const STEPS: ReadonlyMap<string, StepDefinition> = new Map(
  [
    depositStep,
    originStep,
    fillStep,
    destinationStep,
    settleStep,
    originRefundStep,
    orderRefundStep,
    destinationRefundStep,
  ].map((s) => [s.name, s]),
);
