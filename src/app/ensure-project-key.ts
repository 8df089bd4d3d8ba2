/**
 * The devnet's access key: kept across restarts when the store still knows it (devnet.json holds the
 * plaintext, the store only its hash); otherwise a new key is created for the project and returned.
 */
import type { Store } from '../store/index.ts';

export async function ensureProjectKey(
  store: Store,
  projectName: string,
  existing?: string,
): Promise<string> {
  if (existing) {
    const known = await store.accessKeys.resolve(existing);
    if (known) return existing;
  }
  const project = await store.projects.ensure(projectName);
  const { key } = await store.accessKeys.create({ projectId: project.id, label: 'devnet' });
  return key;
}
