import { describe, expect, it } from 'vitest';
import { createLogger, type LoggerOptions } from './logger.ts';

function capture(options: LoggerOptions = {}) {
  const lines: string[] = [];
  const log = createLogger({ format: 'json', ...options, write: (line) => lines.push(line) });
  return { log, lines, records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes one JSON object per line: ISO time, level by name, the fields and msg', () => {
    const { log, lines, records } = capture();
    log.info('intent executed', { intentId: '0x01', chainId: 31_337 });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('\n');
    const [record] = records();
    expect(record).toEqual({
      level: 'info',
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      intentId: '0x01',
      chainId: 31_337,
      msg: 'intent executed',
    });
  });

  it('keeps amounts exact (a bigint is its decimal string, nested too) and shows an error by name and message', () => {
    const { log, records } = capture();
    const amounts = { deposit: 10n ** 24n + 1n, legs: [1n, { fee: 25n }] };
    log.warn('refund failed', { amounts, error: new RangeError('nonce too low') });
    expect(records()[0]).toMatchObject({
      amounts: { deposit: '1000000000000000000000001', legs: ['1', { fee: '25' }] },
      error: { name: 'RangeError', message: 'nonce too low' },
    });
    expect(amounts.deposit).toBe(10n ** 24n + 1n);
  });

  it('drops lines below its level', () => {
    const { log, records } = capture({ level: 'warn' });
    log.debug('noise');
    log.info('progress');
    log.warn('attention');
    log.error('failure');
    expect(records().map((r) => [r.level, r.msg])).toEqual([
      ['warn', 'attention'],
      ['error', 'failure'],
    ]);
  });

  it("puts a child's fields on every line it writes, a grandchild's beside its parent's", () => {
    const { log, records } = capture({ base: { service: 'switchyard' } });
    const engine = log.child({ component: 'engine', chainId: 1n });
    engine.child({ step: 'fill' }).info('sent', { nonce: 7 });
    engine.info('idle');
    expect(records()).toEqual([
      expect.objectContaining({
        service: 'switchyard',
        component: 'engine',
        chainId: '1',
        step: 'fill',
        nonce: 7,
      }),
      expect.objectContaining({ service: 'switchyard', component: 'engine', chainId: '1', msg: 'idle' }),
    ]);
    expect(records()[1]).not.toHaveProperty('step');
  });

  it('writes a field once when a child binds it to the value its parent already did', () => {
    const { log, lines, records } = capture();
    log.child({ component: 'store' }).child({ component: 'store', path: 'a.db' }).info('migrated');
    expect(lines[0]!.match(/"component"/g)).toHaveLength(1);
    expect(records()[0]).toMatchObject({ component: 'store', path: 'a.db' });
  });

  it('never writes a secret: keys, access keys, signatures, passwords, a database URL', () => {
    const { log, lines, records } = capture();
    const key = `0x${'ab'.repeat(32)}`;
    log.child({ accessKey: 'sy_live_123' }).info('configured', {
      privateKey: key,
      signature: '0x1234',
      config: { databaseUrl: 'postgres://app:hunter2@db/switchyard', port: 4000 },
      headers: { 'x-access-key': 'sy_live_456', authorization: 'Bearer t', host: 'api' },
    });
    expect(lines[0]).not.toMatch(/sy_live|hunter2|abab|0x1234|Bearer/);
    expect(records()[0]).toMatchObject({
      accessKey: '[redacted]',
      privateKey: '[redacted]',
      signature: '[redacted]',
      config: { databaseUrl: '[redacted]', port: 4000 },
      headers: { 'x-access-key': '[redacted]', authorization: '[redacted]', host: 'api' },
    });
  });

  it('prints one readable line per event in the pretty format', () => {
    const lines: string[] = [];
    const log = createLogger({ format: 'pretty', write: (line) => lines.push(line) });
    log.child({ component: 'devnet' }).info('starting chain', { chainId: 31_337, amount: 5n });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: starting chain \{"component":"devnet","chainId":31337,"amount":"5"\}$/,
    );
  });
});
