/**
 * A handler's answer already turned into JSON bytes. The server hands `compose` the route's own
 * response serialiser (the one it would have run on an object, dialect renames included), so cached
 * pieces and fresh ones are the same bytes; the returned Buffer is sent as it is. Bytes rather than
 * a string: a 60–80 KB history page joined from strings was flattened and UTF-8 encoded again on
 * every send (~0.7 ms of CPU per page when measured); Buffers are copied once into the answer.
 */
export type Serialize = (value: unknown) => string;

export class PreSerialised {
  constructor(readonly compose: (serialize: Serialize) => Buffer) {}
}

/**
 * Handlers are typed to return the wire object; a PreSerialised answer stands in for it (only the
 * server's request path, which checks `instanceof PreSerialised`, ever sees it).
 */
export function preSerialised<T>(compose: (serialize: Serialize) => Buffer): T {
  return new PreSerialised(compose) as unknown as T;
}
