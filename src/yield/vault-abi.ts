/** The ERC-4626 functions the yield service calls (viem's erc4626Abi lacks the ERC-20 metadata views). */
import { parseAbi } from 'viem';

export const vaultAbi = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function asset() view returns (address)',
  'function totalAssets() view returns (uint256)',
  'function convertToAssets(uint256 shares) view returns (uint256)',
  'function maxDeposit(address receiver) view returns (uint256)',
  'function deposit(uint256 assets, address receiver) returns (uint256 shares)',
]);
