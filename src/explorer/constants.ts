/** Where the API serves the intent explorer, and its pieces. */

/** The explorer's pages: `/explorer`, `/explorer/intents/<id>`, `/explorer/chains/<id>/tx/<hash>`, … */
export const EXPLORER_PATH = '/explorer';
/** The page's script and stylesheet, named by a hash of their content (cached for good). */
export const EXPLORER_ASSETS_PATH = `${EXPLORER_PATH}/assets`;
/** The one read the explorer adds to the client methods (intent-details.ts says why). */
export const INTENT_DETAILS_PATH = `${EXPLORER_PATH}/rpc/IntentDetails`;
/** A chain's transaction view: block explorer links are `<this>/<chainId>/tx/<hash>`. */
export const EXPLORER_CHAINS_PATH = `${EXPLORER_PATH}/chains`;
