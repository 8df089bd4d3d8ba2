/** Runs `npm run demo` (scripts/demo.ts through tsx) as a child to its end, with its output. */
import path from 'node:path';
import { type Finished, runToEnd } from '../../harness/run-to-end.ts';

const DEMO_SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/demo.ts');
const TSX = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');

export function runDemo(args: string[]): Promise<Finished> {
  return runToEnd(TSX, [DEMO_SCRIPT, ...args]);
}
