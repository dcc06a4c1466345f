/**
 * The doorbell's shared memory (`DOORBELL` in protocol.ts): its words, and the calls the page
 * writes into it and the worker reads back. One place for the layout; the handshake of states
 * lives with each side.
 */
import { type CallBatch, DOORBELL } from './protocol';

export interface Doorbell {
  /** `state`, `length`, `posted`, `received`. */
  words: Int32Array;
  bytes: Uint8Array;
}

export function doorbellOf(memory: SharedArrayBuffer): Doorbell {
  return { words: new Int32Array(memory, 0, 4), bytes: new Uint8Array(memory) };
}

/** Shared memory for a new doorbell. */
export function newDoorbellMemory(): SharedArrayBuffer {
  return new SharedArrayBuffer(DOORBELL.header + DOORBELL.bytes);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Put a batch in the buffer (the page, while the worker is parked and reads nothing). False when
 * it does not fit.
 */
export function writeCalls(bell: Doorbell, batch: CallBatch): boolean {
  const payload = encoder.encode(JSON.stringify(batch));
  if (payload.length > bell.bytes.length - DOORBELL.header) return false;
  bell.bytes.set(payload, DOORBELL.header);
  Atomics.store(bell.words, DOORBELL.length, payload.length);
  return true;
}

/** The batch in the buffer (the worker, once rung). */
export function readCalls(bell: Doorbell): CallBatch {
  const length = Atomics.load(bell.words, DOORBELL.length);
  // A copy first: text is not decoded from shared memory.
  return JSON.parse(decoder.decode(bell.bytes.slice(DOORBELL.header, DOORBELL.header + length))) as CallBatch;
}
