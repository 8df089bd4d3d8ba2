/**
 * Worker ids, and which of them name a process that is gone. A worker id is
 * `<hostname>:<pid>:<random>:<process space>`, the last part a short hash of the kernel's boot id and the
 * PID namespace: two ids with the same process space were made by processes that see the same PIDs on the
 * same boot, so a process holding one can ask the kernel whether the other's PID is still alive. A
 * container with its own PID namespace, another machine, or a reboot gives another process space, and such
 * an owner is never judged from here: its leases run out as usual.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/** Where Linux names this boot; another boot reuses PIDs. */
const BOOT_ID_FILE = '/proc/sys/kernel/random/boot_id';
/** This process's PID namespace (`pid:[<inode>]`); PIDs mean the same only inside one. */
const PID_NAMESPACE_LINK = '/proc/self/ns/pid';
/** Hex digits of the process-space hash: enough that two spaces on one database never collide by chance. */
const SPACE_HEX_DIGITS = 8;

/** A new worker id for this process. */
export function newWorkerId(): string {
  const space = processSpace();
  const base = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  return space ? `${base}:${space}` : base;
}

/**
 * The owners among `owners` whose process has ended: made in this process's space, by another PID, that the
 * kernel no longer knows. Ids of another form (set by hand, from another system) are never listed.
 */
export function deadOwnersInThisSpace(owners: Iterable<string>): string[] {
  const space = processSpace();
  if (!space) return [];
  const dead: string[] = [];
  for (const owner of owners) {
    const parts = owner.split(':');
    if (parts.length !== 4 || parts[3] !== space || !/^[1-9]\d*$/.test(parts[1]!)) continue;
    const pid = Number(parts[1]);
    if (pid !== process.pid && !processExists(pid)) dead.push(owner);
  }
  return dead;
}

/** The hash of this boot and PID namespace, or undefined where the system does not say (not Linux). */
function processSpace(): string | undefined {
  try {
    const boot = readFileSync(BOOT_ID_FILE, 'utf8').trim();
    const namespace = readlinkSync(PID_NAMESPACE_LINK);
    return createHash('sha256').update(`${boot}/${namespace}`).digest('hex').slice(0, SPACE_HEX_DIGITS);
  } catch {
    return undefined;
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user. Only ESRCH says there is no such process.
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
