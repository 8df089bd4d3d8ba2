/**
 * ABI parameter descriptions of the Intent and OrderData structs, taken from the compiled contracts so the
 * TypeScript encoding can never drift from the Solidity one.
 */
import { getAbiItem } from 'viem';
import { intentFactoryAbi, originSettlerAbi } from './abis.generated.ts';

export const intentAbiParam = getAbiItem({ abi: intentFactoryAbi, name: 'hashIntent' }).inputs[0];
export const orderDataAbiParam = getAbiItem({ abi: originSettlerAbi, name: 'open' }).inputs[0];
