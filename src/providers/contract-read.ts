/**
 * A view function read as one `eth_call`: the calldata from an encoder compiled once (calldata-encoder.ts),
 * the answer decoded by viem against the function's outputs, so the values are the ones readContract
 * returns (checksummed addresses, bigints). viem's readContract sends the same request but spends more per
 * call (looking the function up, encoding through its generic path, validating and formatting the call
 * request); a quote makes up to nine such reads (docs/benchmarks.md, bench:quote).
 *
 * Errors are the transport's (an RPC error, a revert as the node reports it), not readContract's wrapper;
 * callers that care (the router read) turn any failure into their own error.
 */
import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionReturnType,
  decodeFunctionResult,
  getAbiItem,
  type Hex,
  type PublicClient,
} from 'viem';
import { createCalldataEncoder } from './calldata-encoder.ts';

type ViewName<abi extends Abi> = ContractFunctionName<abi, 'view' | 'pure'>;

export type ContractRead<abi extends Abi, name extends ViewName<abi>> = (
  client: PublicClient,
  address: Address,
  args: ContractFunctionArgs<abi, 'view' | 'pure', name>,
) => Promise<ContractFunctionReturnType<abi, 'view' | 'pure', name>>;

export function createContractRead<const abi extends Abi, name extends ViewName<abi>>(
  abi: abi,
  functionName: name,
): ContractRead<abi, name> {
  const encode = createCalldataEncoder(abi, functionName);
  const only = [getAbiItem({ abi: abi as Abi, name: functionName as string } as never)] as Abi;
  return async (client, address, args) => {
    const data = encode(args as readonly unknown[]);
    const result = (await client.request({
      method: 'eth_call',
      params: [{ to: address, data }, 'latest'],
    })) as Hex;
    return decodeFunctionResult({ abi: only, functionName, data: result } as never) as never;
  };
}
