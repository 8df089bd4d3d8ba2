import { describe, expect, it } from 'vitest';
import { ConfigError } from '../internal/errors.ts';
import { parseDevnetArgs } from './cli-options.ts';
import { DEVNET_KEPT_STATES } from './constants.ts';

const keptStates = (argv: string[]) => {
  const parsed = parseDevnetArgs('devnet', argv, {});
  if (!('options' in parsed)) throw new Error('expected options, got help');
  return parsed.options.keptStates;
};

describe('parseDevnetArgs --kept-states', () => {
  it('defaults to the devnet constant', () => {
    expect(keptStates([])).toBe(DEVNET_KEPT_STATES);
  });

  it("takes a count of blocks or 'all'", () => {
    expect(keptStates(['--kept-states', '1024'])).toBe(1024);
    expect(keptStates(['--kept-states', 'all'])).toBe('all');
  });

  it('rejects anything else with a ConfigError naming the flag and the value', () => {
    for (const bad of ['0', 'many', '-5', '2.5']) {
      let caught: unknown;
      try {
        keptStates([`--kept-states=${bad}`]);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigError);
      expect((caught as Error).message).toContain('--kept-states');
      expect((caught as Error).message).toContain(`'${bad}'`);
    }
  });
});
