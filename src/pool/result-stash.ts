/**
 * The result stash (`STASH` in protocol.ts): results a worker has produced but not posted yet,
 * kept in memory the page shares, so that a worker a later call blocks loses none of them (the
 * page reads the stash before it stops the worker). With it, a worker need not post before each
 * call it starts: a batch of quick calls goes back in one message instead of one each. Pages
 * without shared memory have no stash and post before each start instead.
 *
 * Two sides write the control words, so they follow one handshake (Dekker's, on sequentially
 * consistent atomics): the worker sets `busy`, then checks `lock`; the page sets `lock`, then
 * waits for `busy` to clear. Either the worker sees the lock and writes nothing, or the page
 * sees it busy and waits the few microseconds a write takes (2 ms at most: a write only appends
 * and publishes last, so the page never reads a torn record; a write it stopped waiting for is
 * a result that came as the worker was being stopped, like one finishing after it).
 */
import { findNonJSON } from '../json/json-value';
import { OUT_ERROR, OUT_JSON, OUT_RESULT, OUT_TEXT, type OutBatch, STASH } from './protocol';

export interface ResultStash {
  /** `lock`, `busy`, `used`. */
  words: Int32Array;
  bytes: Uint8Array;
}

export function stashOf(memory: SharedArrayBuffer): ResultStash {
  return { words: new Int32Array(memory, 0, 4), bytes: new Uint8Array(memory) };
}

/** Shared memory for a new stash. */
export function newStashMemory(bytes: number = STASH.bytes): SharedArrayBuffer {
  return new SharedArrayBuffer(STASH.header + bytes);
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let scratch = new Uint8Array(4096);
/** kind, id, byte length. */
const RECORD_HEADER = 12;

/**
 * Keep a result (the worker). False when it is not a result, cannot be written as JSON, does not
 * fit, or the page is reading: then it must be posted before anything else runs.
 */
export function stashResult(stash: ResultStash, kind: number, id: number, payload: unknown): boolean {
  let text: string;
  if (kind === OUT_TEXT || kind === OUT_JSON) {
    if (typeof payload !== 'string') return false;
    text = payload;
  } else if (kind === OUT_RESULT || kind === OUT_ERROR) {
    if (findNonJSON(payload)) return false;
    text = JSON.stringify(payload);
  } else return false;
  const { words, bytes } = stash;
  Atomics.store(words, STASH.busy, 1);
  try {
    if (Atomics.load(words, STASH.lock) !== 0) return false;
    const at = STASH.header + Atomics.load(words, STASH.used);
    const room = bytes.length - at - RECORD_HEADER;
    // Each UTF-16 unit takes at least one byte: a text longer than the room cannot fit.
    if (room < text.length) return false;
    // encodeInto does not write to shared memory: through a scratch buffer of the worker's own.
    const most = Math.min(room, 3 * text.length);
    if (scratch.length < most) scratch = new Uint8Array(Math.max(most, 2 * scratch.length));
    const { read, written } = encoder.encodeInto(text, scratch.subarray(0, most));
    if (read < text.length) return false;
    bytes.set(scratch.subarray(0, written), at + RECORD_HEADER);
    const view = new DataView(bytes.buffer, at, RECORD_HEADER);
    view.setInt32(0, kind, true);
    view.setInt32(4, id, true);
    view.setInt32(8, written, true);
    // Published last: the page reads up to `used`, so a record is whole or absent.
    Atomics.store(words, STASH.used, at - STASH.header + align(RECORD_HEADER + written));
    return true;
  } finally {
    Atomics.store(words, STASH.busy, 0);
  }
}

/** The stashed results were posted: start over (the worker). Nothing is cleared while the page reads. */
export function clearStash(stash: ResultStash): void {
  const { words } = stash;
  if (Atomics.load(words, STASH.used) === 0) return;
  Atomics.store(words, STASH.busy, 1);
  if (Atomics.load(words, STASH.lock) === 0) Atomics.store(words, STASH.used, 0);
  Atomics.store(words, STASH.busy, 0);
}

/**
 * Read the stash without keeping it locked (the page, while the worker runs): a result a sibling
 * keeps from being posted is delivered now rather than when the worker is stopped. While the
 * page reads, the worker's writes fail and it posts instead.
 */
export function peekStash(stash: ResultStash): OutBatch {
  if (Atomics.load(stash.words, STASH.used) === 0) return [];
  const found = readStash(stash);
  Atomics.store(stash.words, STASH.lock, 0);
  return found;
}

/**
 * Lock the stash and read it (the page, before it stops the worker): the results in it as an
 * `OutBatch`. Results the page already has come again; it ignores calls already settled.
 */
export function readStash(stash: ResultStash): OutBatch {
  const { words, bytes } = stash;
  Atomics.store(words, STASH.lock, 1);
  // A write takes microseconds; a worker cannot be stuck inside one (no tool code runs there),
  // but its thread may be descheduled, or have died mid-write: wait 2 ms at most. What was
  // published before is whole either way (a write only appends, and publishes last), and once
  // it sees the lock the worker writes nothing more.
  const until = performance.now() + 2;
  for (let spins = 1; Atomics.load(words, STASH.busy) !== 0; spins++)
    if (spins % 1024 === 0 && performance.now() > until) break;
  const out: OutBatch = [];
  const end = STASH.header + Atomics.load(words, STASH.used);
  const view = new DataView(bytes.buffer);
  for (let at = STASH.header; at + RECORD_HEADER <= end; ) {
    const kind = view.getInt32(at, true);
    const id = view.getInt32(at + 4, true);
    const length = view.getInt32(at + 8, true);
    // A copy first: text is not decoded from shared memory.
    const text = decoder.decode(bytes.slice(at + RECORD_HEADER, at + RECORD_HEADER + length));
    out.push(kind, id, kind === OUT_TEXT || kind === OUT_JSON ? text : JSON.parse(text));
    at += align(RECORD_HEADER + length);
  }
  return out;
}

function align(n: number): number {
  return (n + 3) & ~3;
}
