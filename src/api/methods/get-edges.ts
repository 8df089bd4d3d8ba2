/**
 * GetEdges: the non-EVM rails (Solana, Tron) intents may start or end on. This server moves value between
 * EVM chains only, so there are none; QuoteIntentEdge and GetEdgeStatus are not served (docs/api.md).
 */
import type { Handler } from '../context.ts';

export const createGetEdges = (): Handler<'GetEdges'> => () => ({ edges: [] });
