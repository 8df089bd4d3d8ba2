// The wallets' worker thread entry: a worker does not inherit tsx's loader from the main thread, so it
// registers it and then loads the TypeScript module (as bin/build-contracts.js does).
import { register } from 'tsx/esm/api';

register();
await import('./e2e-wallets-worker.ts');
