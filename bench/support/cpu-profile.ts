/**
 * A V8 CPU profile of this process over one phase of a benchmark, written as a `.cpuprofile` file (open it
 * in Chrome DevTools, or aggregate its samples): where the phase's time goes, without the set-up around it.
 */
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

/** Starts profiling when `file` is set; the returned function stops and writes it (a no-op without a file). */
export async function startCpuProfile(file: string | undefined): Promise<() => Promise<void>> {
  if (!file) return async () => {};
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}
