/**
 * Real Chromium for the explorer tests, driven by playwright-core: Debian's `chromium` package at
 * /usr/bin/chromium (playwright's own browser download does not work on these machines). A machine without
 * it gets it installed here with apt-get (CI runs `npm ci && npm test` as root on a fresh machine of the
 * same kind); if that fails the suite fails with apt's output, it never skips. docs/explorer.md says why.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
/** apt-get update and the install of chromium and its libraries on a fresh machine (ms). */
export const CHROMIUM_INSTALL_TIMEOUT_MS = 600_000;
/** Where screenshots go for a person to look at (gitignored). */
export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../../../test-output/explorer');

/**
 * As root Chromium needs --no-sandbox; the rest keep it from reaching out to Google's hosts, which this
 * machine's closed network refuses, many at a time (/work/.library/env/machines/node-svc.md). Headless
 * mode and a new empty profile are playwright's own defaults.
 */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const run = promisify(execFile);

export async function ensureChromium(): Promise<string> {
  if (existsSync(CHROMIUM_PATH)) return CHROMIUM_PATH;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let output = '';
  try {
    output += (await run('apt-get', ['update'], { env, maxBuffer: 64 * 1024 * 1024 })).stdout;
    output += (
      await run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
        env,
        maxBuffer: 64 * 1024 * 1024,
      })
    ).stdout;
  } catch (error) {
    throw new Error(
      `installing Debian's chromium failed: ${(error as Error).message}\n${output.slice(-4000)}`,
    );
  }
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(`apt-get installed chromium, but ${CHROMIUM_PATH} is missing\n${output.slice(-4000)}`);
  return CHROMIUM_PATH;
}

export async function launchChromium(): Promise<Browser> {
  const executablePath = await ensureChromium();
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
}
