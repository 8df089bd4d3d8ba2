/** `switchyard devnet`: the local multi-chain devnet alone, in the foreground until Ctrl-C. */
import { parseDevnetArgs } from '../../devnet/cli-options.ts';
import { formatDevnetSummary } from '../../devnet/format-summary.ts';
import { startDevnet } from '../../devnet/start-devnet.ts';
import { listenForStopSignals, waitForStop } from '../../devnet/wait-for-stop.ts';
import { createLogger } from '../../internal/logger.ts';
import { createShutdown } from '../../internal/shutdown.ts';

export async function run(argv: string[]): Promise<number> {
  const parsed = parseDevnetArgs('devnet', argv, process.env);
  if ('help' in parsed) {
    process.stdout.write(parsed.help);
    return 0;
  }
  const log = createLogger().child({ component: 'devnet' });
  const shutdown = createShutdown((name, error) => log.error('shutdown step failed', { name, error }));
  const signals = listenForStopSignals();
  try {
    const devnet = await startDevnet({ ...parsed.options, log });
    shutdown.add('devnet', () => devnet.stop());
    process.stdout.write(formatDevnetSummary(devnet));
    return await waitForStop(shutdown, signals, devnet.chainExited, log);
  } finally {
    signals.dispose();
  }
}
