/** Check results as doctor prints them: one line each (status, where, what), a fix line under each warn and fail. */
import type { CheckResult } from './types.ts';

const STATUS_LABEL = { ok: 'ok  ', warn: 'WARN', fail: 'FAIL' } as const;

export function formatChecks(results: readonly CheckResult[]): string {
  const scopeWidth = Math.max(0, ...results.map((r) => scope(r).length));
  const checkWidth = Math.max(...results.map((r) => r.check.length));
  const lines = results.flatMap((r) => {
    const line = `${STATUS_LABEL[r.status]}  ${scope(r).padEnd(scopeWidth)}  ${r.check.padEnd(checkWidth)}  ${r.message}`;
    return r.fix ? [line, `      fix: ${r.fix}`] : [line];
  });
  return `${lines.join('\n')}\n${summary(results)}\n`;
}

export function summary(results: readonly CheckResult[]): string {
  const count = (status: CheckResult['status']) => results.filter((r) => r.status === status).length;
  return `${count('ok')} ok, ${count('warn')} warn, ${count('fail')} fail`;
}

const scope = (r: CheckResult) => (r.chainId === undefined ? '' : `chain ${r.chainId}`);
