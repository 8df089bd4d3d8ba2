/**
 * The `recipient_address` column (migration 0014): who the stored intent pays on the destination chain when
 * not its owner, from the wire intent's `quoteRequest.destinationToAddress`, lower case; null when the request
 * named none or named the owner (`owner_address` already matches the owner).
 */
export function recipientAddressOf(intent: unknown, ownerAddress: string): string | null {
  const to = (intent as { quoteRequest?: { destinationToAddress?: unknown } } | null)?.quoteRequest
    ?.destinationToAddress;
  if (typeof to !== 'string' || to === '') return null;
  const recipient = to.toLowerCase();
  return recipient === ownerAddress.toLowerCase() ? null : recipient;
}
