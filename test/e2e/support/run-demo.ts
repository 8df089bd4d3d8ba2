/** Runs `npm run demo` (scripts/demo.ts through tsx) as a child to its end, with its output. */
import { spawn } from 'node:child_process';
import path from 'node:path';

const DEMO_SCRIPT = path.resolve(import.meta.dirname, '../../../scripts/demo.ts');
const TSX = path.resolve(import.meta.dirname, '../../../node_modules/.bin/tsx');

export function runDemo(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [DEMO_SCRIPT, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
