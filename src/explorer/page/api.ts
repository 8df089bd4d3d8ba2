/**
 * The page's calls to this server: the client methods under /rpc/Trails/ (the official client's names) and
 * the explorer's one extra read, /explorer/rpc/IntentDetails. Errors come back as ApiError with the
 * server's webrpc name and message.
 */
import type { IntentDetails } from './types.ts';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly error: string,
    readonly status: number,
  ) {
    super(message);
  }
}

export interface Api {
  call<T>(method: string, body?: object, signal?: AbortSignal): Promise<T>;
  details(intentId: string, signal?: AbortSignal): Promise<IntentDetails>;
}

export function createApi(accessKey: string): Api {
  const post = async <T>(path: string, body: object, signal?: AbortSignal): Promise<T> => {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-access-key': accessKey },
      body: JSON.stringify(body),
      ...(signal && { signal }),
    });
    const answer = (await response.json().catch(() => ({}))) as { error?: string; message?: string };
    if (!response.ok) {
      throw new ApiError(
        answer.message ?? `the server answered ${response.status}`,
        answer.error ?? 'Error',
        response.status,
      );
    }
    return answer as T;
  };
  return {
    call: (method, body = {}, signal) => post(`/rpc/Trails/${method}`, body, signal),
    details: (intentId, signal) => post('/explorer/rpc/IntentDetails', { intentId }, signal),
  };
}
