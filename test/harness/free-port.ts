/** TCP ports on loopback for test servers. */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fetchRefusedPortIn } from '../../src/internal/fetch-blocked-ports.ts';

/** Where the kernel's ephemeral range is read on Linux. */
const EPHEMERAL_RANGE_FILE = '/proc/sys/net/ipv4/ip_local_port_range';
/** Linux's default ephemeral range, used where the file cannot be read. */
const DEFAULT_EPHEMERAL_LOW = 32_768;
/** Lowest port a stable port is picked from: above the well-known and common service ports. */
const STABLE_PORT_LOW = 10_000;
/** Picks tried before giving up: a port found bound is passed over, and each miss is rare. */
const STABLE_PORT_TRIES = 50;

/** A TCP port on loopback that was free a moment ago (the OS picks it from its ephemeral range). */
export function freePort(): Promise<number> {
  return listenOnce(0);
}

/**
 * A free loopback port below the kernel's ephemeral range, for a server that must listen on the same
 * port across restarts (a load balancer's fixed upstream). A port from freePort() is in the ephemeral
 * range, so any outgoing connection on the machine can take it while the server is down or not yet
 * listening; a port below the range is only taken by a process that asks for it by number.
 */
export function stablePort(): Promise<number> {
  return stablePortRange(1);
}

/**
 * The first of `count` consecutive free ports below the ephemeral range (a devnet's chains: base + i).
 * A range holding a port fetch refuses (10080) is passed over: viem could not reach a chain there.
 */
export async function stablePortRange(count: number): Promise<number> {
  const high = ephemeralLow() - count;
  for (let tries = 0; tries < STABLE_PORT_TRIES; tries++) {
    const base = STABLE_PORT_LOW + Math.floor(Math.random() * (high - STABLE_PORT_LOW + 1));
    if (fetchRefusedPortIn(base, count) === undefined && (await allFree(base, count))) return base;
  }
  throw new Error(
    `no ${count} free ports between ${STABLE_PORT_LOW} and ${high} after ${STABLE_PORT_TRIES} tries`,
  );
}

async function allFree(base: number, count: number): Promise<boolean> {
  for (let port = base; port < base + count; port++) {
    if ((await listenOnce(port).catch(() => undefined)) === undefined) return false;
  }
  return true;
}

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync(EPHEMERAL_RANGE_FILE, 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > STABLE_PORT_LOW + 1_000 ? low : DEFAULT_EPHEMERAL_LOW;
  } catch {
    return DEFAULT_EPHEMERAL_LOW;
  }
}

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const bound = (server.address() as { port: number }).port;
      server.close(() => resolve(bound));
    });
  });
}
