/**
 * The one place where viem / JSON-RPC failures become Switchyard errors. Callers wrap chain calls in
 * `mapChainError` (or `withChainErrors`) and then only ever see the classes of `./errors.ts`.
 */
import { type Abi, BaseError, decodeErrorResult, type Hex } from 'viem';
import {
  destinationSettlerAbi,
  devUsdcAbi,
  intentAccountAbi,
  intentFactoryAbi,
  originSettlerAbi,
} from '../contracts/abis.generated.ts';
import { SwitchyardError } from '../internal/errors.ts';
import {
  ChainRpcError,
  ChainUnavailableError,
  NonceAlreadyUsedError,
  ReplacementUnderpricedError,
  SenderUnderfundedError,
  SimulationRevertedError,
} from './errors.ts';

/** HTTP statuses that mean "the node is overloaded or down", not "the request is wrong". */
const RETRYABLE_HTTP_STATUSES = new Set([408, 425, 429, 500, 502, 503, 504]);
/** JSON-RPC code for "execution reverted" (EIP-1474 / geth, anvil). */
const EXECUTION_REVERTED_CODE = 3;
/** JSON-RPC codes nodes use for "limit exceeded" / "resource unavailable": back off and retry. */
const RETRYABLE_RPC_CODES = new Set([-32005, -32002, 429]);

/** Errors of our own contracts, so a revert reads `InsufficientDeposit(required=…, actual=…)`. */
const KNOWN_ERRORS_ABI = [
  ...intentAccountAbi,
  ...intentFactoryAbi,
  ...originSettlerAbi,
  ...destinationSettlerAbi,
  // OpenZeppelin ERC-20 errors (ERC20InsufficientAllowance, …), common inside destination calls.
  ...devUsdcAbi,
].filter((item) => item.type === 'error') as Abi;

const MESSAGE_RULES: { pattern: RegExp; make: (message: string, cause: unknown) => SwitchyardError }[] = [
  {
    pattern: /nonce too low|already known|transaction already imported|nonce has already been used/i,
    make: (m, cause) => new NonceAlreadyUsedError(`the node reports the nonce as used: ${m}`, { cause }),
  },
  {
    pattern: /replacement transaction underpriced|replacement fee too low/i,
    make: (m, cause) => new ReplacementUnderpricedError(`replacement refused: ${m}`, { cause }),
  },
  {
    pattern: /insufficient funds/i,
    make: (m, cause) => new SenderUnderfundedError(`the sender cannot pay for gas: ${m}`, { cause }),
  },
  {
    pattern: /fetch failed|ECONNREFUSED|ECONNRESET|ETIMEDOUT|socket hang up|timed out|took too long/i,
    make: (m, cause) => new ChainUnavailableError(`the chain's RPC is unavailable: ${m}`, { cause }),
  },
];

export function mapChainError(error: unknown, context: Record<string, unknown> = {}): SwitchyardError {
  if (error instanceof SwitchyardError) return error;
  const revert = revertOf(error);
  if (revert) return new SimulationRevertedError(revert, { details: context, cause: error });
  const message = messageOf(error);
  for (const rule of MESSAGE_RULES) {
    if (rule.pattern.test(message)) {
      const mapped = rule.make(firstLine(message), error);
      Object.assign(mapped.details, context);
      return mapped;
    }
  }
  const status = findInChain(error, (e) => numberProp(e, 'status'));
  const code = findInChain(error, (e) => numberProp(e, 'code'));
  const isTransport = findInChain(error, (e) =>
    ['HttpRequestError', 'TimeoutError', 'WebSocketRequestError', 'SocketClosedError'].includes(
      (e as { name?: string }).name ?? '',
    )
      ? true
      : undefined,
  );
  if (
    (status !== undefined && RETRYABLE_HTTP_STATUSES.has(status)) ||
    (code !== undefined && RETRYABLE_RPC_CODES.has(code)) ||
    (isTransport && status === undefined)
  ) {
    return new ChainUnavailableError(`the chain's RPC is unavailable: ${firstLine(message)}`, {
      details: { ...context, status, code },
      cause: error,
    });
  }
  return new ChainRpcError(`chain call failed: ${firstLine(message)}`, {
    details: { ...context, status, code },
    cause: error,
  });
}

/** Runs a chain call and maps whatever it throws. */
export async function withChainErrors<T>(
  run: () => Promise<T>,
  context: Record<string, unknown> = {},
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw mapChainError(error, context);
  }
}

/** The revert reason when the error is an execution revert; undefined for anything else. */
function revertOf(error: unknown): string | undefined {
  const isRevert = findInChain(error, (e) => {
    const name = (e as { name?: string }).name;
    if (name === 'ExecutionRevertedError' || name === 'ContractFunctionRevertedError') return true;
    if (numberProp(e, 'code') === EXECUTION_REVERTED_CODE) return true;
    const details = (e as { details?: unknown }).details;
    return typeof details === 'string' && /execution reverted|revert/i.test(details) ? true : undefined;
  });
  if (!isRevert) return undefined;
  const data = findInChain(error, (e) => {
    const d = (e as { data?: unknown }).data;
    if (typeof d === 'string' && d.startsWith('0x')) return d as Hex;
    if (d && typeof d === 'object' && typeof (d as { data?: unknown }).data === 'string') {
      return (d as { data: Hex }).data;
    }
    return undefined;
  });
  if (data && data.length >= 10) return describeRevertData(data);
  const reason = findInChain(error, (e) => {
    const r = (e as { reason?: unknown }).reason;
    return typeof r === 'string' && r ? r : undefined;
  });
  return reason ?? firstLine(messageOf(error));
}

function findInChain<T>(error: unknown, pick: (e: object) => T | undefined): T | undefined {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 10; depth++) {
    const found = pick(current);
    if (found !== undefined) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function numberProp(e: object, key: string): number | undefined {
  const v = (e as Record<string, unknown>)[key];
  return typeof v === 'number' ? v : undefined;
}

function messageOf(error: unknown): string {
  if (error instanceof BaseError) return `${error.shortMessage} ${error.details ?? ''}`.trim();
  if (error instanceof Error) return error.message;
  return String(error);
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** Revert data as `ErrorName(arg, …)` (our contracts, OZ ERC-20, Error(string), Panic), else its selector. */
export function describeRevertData(data: Hex): string {
  if (data.length < 10) return data === '0x' ? 'empty revert data' : `revert data ${data}`;
  try {
    const decoded = decodeErrorResult({ abi: KNOWN_ERRORS_ABI, data });
    // IntentAccount wraps a failing call's own revert: unwrap it so the reason names the real cause.
    if (decoded.errorName === 'CallFailed' && decoded.args?.length === 2) {
      const [index, inner] = decoded.args as [bigint, Hex];
      return `CallFailed(call ${index}: ${describeRevertData(inner)})`;
    }
    const args = (decoded.args ?? []).map((a) => String(a)).join(', ');
    return `${decoded.errorName}(${args})`;
  } catch {
    return `unknown error ${data.slice(0, 10)}`;
  }
}
