/**
 * A debug hook for the crash tests (test/resilience): when the environment variable
 * SWITCHYARD_DEBUG_CRASH_AT names this point (a comma-separated list of names like
 * `origin-execute:signed`), the process kills itself with SIGKILL right here — no shutdown handler, no
 * flush, exactly like a power cut. Points: `<purpose>:signed` (stored, not broadcast),
 * `<purpose>:sent` (sent to the node, its broadcast mark held for the caller's write and not written yet:
 * `SendRequest.holdBroadcastMark`), `<purpose>:broadcast` (sent to the node), `<purpose>:mined` (receipt deep enough and recorded), and
 * `execute:accepted` (ExecuteIntent recorded, before its answer), `webhook:before-post` (an event leased for
 * delivery, not sent) and `webhook:delivered` (answered 2xx, not recorded). Unset in production: a no-op.
 */
export const CRASH_AT_ENV = 'SWITCHYARD_DEBUG_CRASH_AT';

export function crashPoint(name: string, env: Record<string, string | undefined> = process.env): void {
  const wanted = env[CRASH_AT_ENV];
  if (!wanted?.split(',').includes(name)) return;
  process.stderr.write(`${CRASH_AT_ENV}: killing the process at ${name}\n`);
  process.kill(process.pid, 'SIGKILL');
}
