/** The execution-plan builder: what QuoteIntent calls to turn a request into intents, amounts and fees. */
export { buildExecutionPlan, inferTradeType } from './build-execution-plan.ts';
export * from './constants.ts';
export { findAmountWords } from './destination-call.ts';
export * from './errors.ts';
export type * from './types.ts';
