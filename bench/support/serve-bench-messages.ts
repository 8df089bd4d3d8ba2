/**
 * The server side of a benchmark whose API server runs in a child process: answers the measuring process's
 * messages (bench/support/server-messages.ts). The benchmark says how to load the store, how to start the
 * server on it, what it counts and how it changes the intents; the store, the memory figures and the
 * replies are kept here.
 */
import { createSilentLogger } from '../../src/internal/logger.ts';
import { createStore } from '../../src/store/create-store.ts';
import type { Store } from '../../src/store/types.ts';
import type { Answer, ToServer } from './server-messages.ts';

export interface BenchServer<Counts> {
  /** The project whose key the measuring process calls with; the intents are its. */
  project: string;
  /** Loads `count` intents of the project into the store, before the server starts; answers their ids. */
  load(store: Store, projectId: number, count: number): Promise<string[]>;
  /** Starts the API server on the loaded store. */
  serve(store: Store): Promise<{ url: string; key: string; stop(): Promise<void> }>;
  /** What the server counts beside its memory, answered with every `stats`. */
  counts(): Counts;
  /** Changes every intent once, `rate` per second; answers when each change began. */
  change(store: Store, intentIds: string[], rate: number): Promise<Record<string, number>>;
  /** Called after each full collection a `stats` asked for. */
  collected?(): void;
}

export function serveBenchMessages<Counts>(server: BenchServer<Counts>): void {
  let store: Store | undefined;
  let close: (() => Promise<void>) | undefined;
  let intentIds: string[] = [];
  process.on('message', async (message: ToServer) => {
    const reply = (answer: Answer<Counts>) => process.send?.({ ...answer, id: message.id });
    try {
      if (message.type === 'start') {
        store = await createStore({ ...message.target, log: createSilentLogger() });
        // Loaded before the server starts, as a server finds its database.
        const project = await store.projects.ensure(server.project);
        intentIds = await server.load(store, project.id, message.intents);
        const app = await server.serve(store);
        close = async () => {
          await app.stop();
          await store?.close();
        };
        reply({ type: 'ready', url: app.url, key: app.key, intentIds });
      } else if (message.type === 'stats') {
        if (message.gc) {
          global.gc?.();
          server.collected?.();
        }
        const memory = process.memoryUsage();
        reply({
          type: 'stats',
          rss: memory.rss,
          heapUsed: memory.heapUsed,
          heapTotal: memory.heapTotal,
          external: memory.external,
          ...server.counts(),
        } as Answer<Counts>);
      } else if (message.type === 'change') {
        reply({ type: 'changed', at: await server.change(store!, intentIds, message.rate) });
      } else if (message.type === 'stop') {
        await close?.();
        process.exit(0);
      }
    } catch (error) {
      reply({ type: 'error', message: (error as Error).stack ?? String(error) });
    }
  });
}
