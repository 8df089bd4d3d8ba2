/** The one currency this server prices in: every USD value it answers is in US dollars, from its price source. */
export const USD = {
  code: 'USD',
  symbol: '$',
  name: 'US Dollar',
  flag: '🇺🇸',
  /** Cents: the places a US dollar amount is shown with. */
  decimals: 2,
} as const;
