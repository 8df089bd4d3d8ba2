/**
 * Where a data dir's devnet.json is. Apart from the devnet's constants (which load viem), so a command that
 * only checks whether a data dir holds a devnet (`switchyard webhooks`) starts without the chain tooling.
 */
import path from 'node:path';

export const DEVNET_FILE_NAME = 'devnet.json';

export function devnetFilePath(dataDir: string): string {
  return path.join(dataDir, DEVNET_FILE_NAME);
}
