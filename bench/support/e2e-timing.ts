/** One intent's clock readings (performance.now(), ms): what both runs record. */
export interface IntentTiming {
  /** The user's deposit was handed to the node. */
  depositSentAt: number;
  /** The user saw the deposit's receipt. */
  depositMinedAt: number;
  /** SUCCEEDED (service run) or the destination execution's receipt seen (bare run). */
  doneAt: number;
  /** The origin block that holds the deposit. */
  depositBlock: bigint;
  /** The destination execution's transaction (its block is looked up after the run). */
  destinationHash: `0x${string}`;
}

/** The raw deposit transaction the quote carries beside the client's typed members. */
export interface RawDeposit {
  to: `0x${string}`;
  data: `0x${string}`;
  value?: string | number | bigint;
}
