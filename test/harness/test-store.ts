/**
 * A store a test fills before it starts a process on it (startTestService's `store`), on a fresh SQLite
 * file, with a project of its own.
 */
import { createSilentLogger } from '../../src/internal/logger.ts';
import { type CreateStoreOptions, createStore } from '../../src/store/create-store.ts';
import type { Store } from '../../src/store/types.ts';
import { createTestDatabase } from './database.ts';

export interface TestStore {
  store: Store;
  /** The project the test's intents belong to (`projectName`). */
  projectId: number;
  /** Closes the store and deletes its file. */
  close(): Promise<void>;
}

export async function openTestStore(
  projectName: string,
  extra: Partial<CreateStoreOptions> = {},
): Promise<TestStore> {
  const database = await createTestDatabase('sqlite');
  const store = await createStore({ ...database.options, log: createSilentLogger(), ...extra });
  const projectId = (await store.projects.create(projectName)).id;
  return {
    store,
    projectId,
    close: async () => {
      await store.close();
      await database.drop();
    },
  };
}
