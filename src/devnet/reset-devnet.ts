/** `--reset`: forgets the chains' saved state and the old devnet.json (the database is not touched here). */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CHAINS_DIR_NAME } from './constants.ts';
import { devnetFilePath } from './devnet-file-path.ts';

export async function resetDevnet(dataDir: string): Promise<void> {
  await rm(path.join(dataDir, CHAINS_DIR_NAME), { recursive: true, force: true });
  await rm(devnetFilePath(dataDir), { force: true });
}
