export type { EngineKeys } from './context.ts';
export {
  createIntentEngine,
  type IntentEngineDeps,
  type IntentEngineOptions,
} from './create-intent-engine.ts';
export type { IntentEngine } from './types.ts';
