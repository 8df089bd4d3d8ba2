/**
 * An event read from the log, with its wire JSON made once however many streams and endpoints send it: at
 * 10,000 open streams an event serialised per stream would be 10,000 JSON.stringify calls.
 */
import type { IntentEventRecord } from '../store/index.ts';
import { toWireEvent } from './wire-event.ts';

export class FeedEvent {
  readonly record: IntentEventRecord;
  private text: string | undefined;
  private frame: string | undefined;

  constructor(record: IntentEventRecord) {
    this.record = record;
  }

  get seq(): number {
    return this.record.seq;
  }

  /** `{ id, type, createdAt, data }` as JSON: a webhook's body, a stream message's data. */
  get json(): string {
    this.text ??= JSON.stringify(toWireEvent(this.record));
    return this.text;
  }

  /** The Server-Sent Events message: its id (Last-Event-ID on a reconnect) and data. */
  get sseFrame(): string {
    this.frame ??= `id: ${this.record.seq}\ndata: ${this.json}\n\n`;
    return this.frame;
  }
}
