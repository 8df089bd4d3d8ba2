/**
 * Runs a command on one project's rows (`keys`, `webhooks`) on the store at `location`: opens the store, runs
 * the command and closes the store. A project that does not exist is said on stderr with how to create it
 * (exit 1), whichever step found it missing.
 */
import { createLogger } from '../internal/logger.ts';
import { type CreateStoreOptions, createStore } from '../store/create-store.ts';
import { ProjectNotFoundError } from '../store/errors.ts';
import type { StoreLocation } from '../store/store-location.ts';
import type { Store } from '../store/types.ts';

export async function withProjectStore(
  command: string,
  /** With the secrets' keys when commands read webhook secrets (`webhooks test`). */
  location: StoreLocation & Pick<CreateStoreOptions, 'webhookSecretsKey' | 'webhookSecretsPreviousKey'>,
  projectName: string,
  run: (store: Store) => Promise<number>,
): Promise<number> {
  const store = await createStore({ ...location, log: createLogger({ level: 'warn' }) });
  try {
    return await run(store);
  } catch (error) {
    if (!(error instanceof ProjectNotFoundError)) throw error;
    process.stderr.write(
      `switchyard ${command}: project '${projectName}' does not exist in ${location.description} ` +
        `(create it with its first key: switchyard keys create --project ${projectName})\n`,
    );
    return 1;
  } finally {
    await store.close();
  }
}
