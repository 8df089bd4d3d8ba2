/**
 * The public-network registry (data/public-networks.json) as data: the networks config init promises are
 * there, every address is in EIP-55 mixed case (so a mistyped digit fails here) and names a source page, and
 * each chain's native wrapper is also one of its listed tokens.
 */
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { loadPublicNetworks } from '../../src/operator/public-networks.ts';

const registry = loadPublicNetworks();
const REQUIRED = {
  1: 'Ethereum',
  8453: 'Base',
  42161: 'Arbitrum One',
  10: 'OP Mainnet',
  137: 'Polygon PoS',
  11155111: 'Sepolia',
  84532: 'Base Sepolia',
  421614: 'Arbitrum Sepolia',
  11155420: 'OP Sepolia',
  80002: 'Polygon Amoy',
};

describe('the public-network registry', () => {
  it('covers the mainnets and testnets config init promises, each with USDC as its USD reference', () => {
    for (const [chainId, name] of Object.entries(REQUIRED)) {
      const network = registry.networks.find((n) => n.chainId === Number(chainId));
      expect(network?.name, `chain ${chainId}`).toBe(name);
      expect(network?.tokens.find((t) => t.symbol === 'USDC')).toMatchObject({
        decimals: 6,
        isUsdReference: true,
      });
    }
    expect(new Set(registry.networks.map((n) => n.chainId)).size).toBe(registry.networks.length);
  });

  it('writes every address in EIP-55 mixed case and names a source page for it', () => {
    for (const network of registry.networks) {
      const entries = [...network.tokens, ...Object.values(network.contracts), network];
      for (const entry of entries) {
        const where = `chain ${network.chainId} ${JSON.stringify(entry).slice(0, 80)}`;
        expect(registry.sources[entry.source], where).toMatch(/^https:\/\//);
        if ('address' in entry) expect(getAddress(entry.address), where).toBe(entry.address);
      }
    }
  });

  it('lists one token per symbol per chain, and the native wrapper among the tokens', () => {
    for (const network of registry.networks) {
      const symbols = network.tokens.map((t) => t.symbol);
      expect(new Set(symbols).size, `chain ${network.chainId}`).toBe(symbols.length);
      const wrapper = network.contracts.weth?.address;
      if (wrapper)
        expect(
          network.tokens.map((t) => t.address),
          `chain ${network.chainId}`,
        ).toContain(wrapper);
      expect(network.confirmations).toBeGreaterThan(0);
      expect(network.explorerUrl).toMatch(/^https:\/\//);
    }
  });
});
