import { type ChildProcess, spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { exitedPid, idOfProcess } from '../../test/harness/worker-ids.ts';
import { deadOwnersInThisSpace, newWorkerId } from './worker-id.ts';

describe('worker ids', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
  });

  it('name the host, this process and its process space, and differ per worker', () => {
    const [host, pid, random, space] = newWorkerId().split(':');
    expect(host).toBe(hostname());
    expect(Number(pid)).toBe(process.pid);
    expect(random).toMatch(/^[0-9a-f]{8}$/);
    expect(space).toMatch(/^[0-9a-f]{8}$/);
    expect(newWorkerId()).not.toBe(newWorkerId());
  });

  it('judge an owner dead only when its process, in this process space, has ended', async () => {
    const live = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)']);
    children.push(live);
    const dead = idOfProcess(await exitedPid());
    const owners = [
      dead,
      idOfProcess(live.pid!),
      newWorkerId(), // this process
      idOfProcess(process.pid), // another worker of this process
      idOfProcess(await exitedPid(), 'ffffffff'), // another machine, container or boot: never judged
      'worker-a', // set by hand
      `${hostname()}:${live.pid}:0badc0de`, // no process space (a system without /proc)
    ];
    expect(deadOwnersInThisSpace(owners)).toEqual([dead]);
  });
});
