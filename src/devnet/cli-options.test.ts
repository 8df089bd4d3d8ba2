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

describe('parseDevnetArgs --base-port', () => {
  const basePort = (argv: string[]) => {
    const parsed = parseDevnetArgs('devnet', argv, {});
    if (!('options' in parsed)) throw new Error('expected options, got help');
    return parsed.options.basePort;
  };

  it('takes a base port whose chains fetch can reach, and 0', () => {
    expect(basePort(['--base-port', '20000'])).toBe(20000);
    expect(basePort(['--base-port', '0'])).toBe(0);
  });

  it('rejects a base port that puts a chain on a port fetch refuses (10080), naming the flag and the port', () => {
    expect(() => basePort(['--base-port', '10078'])).toThrow(ConfigError);
    expect(() => basePort(['--base-port', '10078'])).toThrow(/--base-port 10078 puts a chain on port 10080/);
  });
});
