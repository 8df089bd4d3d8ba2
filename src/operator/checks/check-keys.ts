/**
 * The operator's keys from the environment (src/intents/operator-from-env.ts): all three set and well formed,
 * or none (the API then serves reads only). The attester must be its own key (DESIGN §4).
 */
import { type OperatorKeys, operatorFromEnv } from '../../intents/operator-from-env.ts';
import { type CheckResult, ok, problem } from './types.ts';

export function checkKeys(env: Record<string, string | undefined>): {
  result: CheckResult;
  operator: OperatorKeys | undefined;
} {
  let operator: OperatorKeys | undefined;
  try {
    operator = operatorFromEnv(env);
  } catch (error) {
    const fix =
      'set SWITCHYARD_RELAYER_KEY, SWITCHYARD_SOLVER_KEY and SWITCHYARD_ATTESTER_KEY to distinct private keys';
    return { result: problem('fail', 'keys', (error as Error).message, fix), operator: undefined };
  }
  if (!operator) {
    const message =
      'no operator keys: the API serves reads only; QuoteIntent and the other intent methods are off';
    const fix =
      'set SWITCHYARD_RELAYER_KEY, SWITCHYARD_SOLVER_KEY and SWITCHYARD_ATTESTER_KEY to serve intents';
    return { result: problem('warn', 'keys', message, fix), operator };
  }
  const { relayer, solver, attester } = operator;
  if (attester.address === relayer.address || attester.address === solver.address) {
    const message = `the attester key is also the ${attester.address === relayer.address ? 'relayer' : 'solver'}'s`;
    return {
      result: problem('warn', 'keys', message, 'give the attester its own key (and deploy for its address)'),
      operator,
    };
  }
  return {
    result: ok('keys', `relayer ${relayer.address}, solver ${solver.address}, attester ${attester.address}`),
    operator,
  };
}

export function checkFeeCollector(
  env: Record<string, string | undefined>,
  operator: OperatorKeys | undefined,
) {
  if (!operator) return undefined;
  if (env.SWITCHYARD_FEE_COLLECTOR) return ok('fee-collector', `service fees go to ${operator.feeCollector}`);
  return problem(
    'warn',
    'fee-collector',
    `SWITCHYARD_FEE_COLLECTOR is not set: service fees go to the relayer ${operator.relayer.address}`,
    'set SWITCHYARD_FEE_COLLECTOR to the address that should receive service fees',
  );
}
