/**
 * The devnet's access key (what `switchyard start` prints and writes into devnet.json): kept across
 * restarts when the store still knows it (devnet.json holds the plaintext, the store only its hash),
 * otherwise a new key of the devnet project. Its rate limit is one local development never reaches; a
 * key kept from a database made before it had that limit is raised to it.
 */
import type { Store } from '../store/index.ts';

/** The project that owns the devnet's access key. */
export const DEVNET_PROJECT = 'devnet';

/**
 * 1,000 requests per second (bursts of 2,000): a developer's own integration tests against the devnet
 * run requests in parallel and poll receipts; the default of keys made with `switchyard keys create`
 * (10 per second) would answer them RateLimited at once.
 */
export const DEVNET_KEY_RATE_LIMIT_PER_MINUTE = 60_000;

export async function ensureDevnetAccessKey(store: Store, existing?: string): Promise<string> {
  if (existing) {
    const known = await store.accessKeys.resolve(existing);
    if (known) {
      if (known.rateLimitPerMinute < DEVNET_KEY_RATE_LIMIT_PER_MINUTE) {
        await store.accessKeys.setRateLimit({
          id: known.id,
          rateLimitPerMinute: DEVNET_KEY_RATE_LIMIT_PER_MINUTE,
        });
      }
      return existing;
    }
  }
  const project = await store.projects.ensure(DEVNET_PROJECT);
  const { key } = await store.accessKeys.create({
    projectId: project.id,
    label: 'devnet',
    rateLimitPerMinute: DEVNET_KEY_RATE_LIMIT_PER_MINUTE,
  });
  return key;
}
