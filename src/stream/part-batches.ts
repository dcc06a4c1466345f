/**
 * Parts that arrived together. A stream decoder reads its input a network chunk at a time; each
 * chunk holds events (units), each event gives parts. Read part by part, every part is handed
 * out as of its own event (partial arguments included); read a batch at a time, one chunk's
 * parts come together, which is how the agent takes them (the calls that close in one chunk are
 * started together), for one resolved promise per chunk instead of one per part.
 */

import { SLICE_MS, WorkSlice } from './work-slice';

/** A stream that can also be read a batch at a time. */
export interface BatchedParts<T> extends AsyncIterable<T> {
  /**
   * The same parts, one array (never empty) per chunk of input (a chunk that takes long to
   * decode comes in several). Read this or the parts, not both. A part's live values
   * (`partialArgs`) are then as of the end of its batch.
   */
  batches(): AsyncIterable<T[]>;
}

/** What `unitStream` reads: input that arrives in chunks of units (events) that each give parts. */
export interface UnitSource<T> {
  /** The parts of the next unit already read, or undefined when none is waiting. */
  take(): T[] | undefined;
  /** Read the next chunk; false when the input has ended and every unit was taken. */
  fill(): Promise<boolean>;
  /** Stop reading (the consumer stopped early). */
  close(): Promise<void>;
}

/**
 * A `UnitSource` as a stream of parts that can also be read in batches. Reading yields to the
 * page after each slice of work (`WorkSlice`): a batch holds one chunk's parts, or as many as
 * were decoded in one slice when a chunk is bigger than that.
 */
export function unitStream<T, S extends object>(source: UnitSource<T>, extra: S): BatchedParts<T> & S {
  let buffer: T[] = [];
  let index = 0;
  const slice = new WorkSlice();
  const done = async (): Promise<IteratorResult<never>> => {
    buffer = [];
    await source.close();
    return { done: true, value: undefined };
  };
  /** Read the next chunk, then go on with `next`. */
  const fill = <R>(next: () => Promise<IteratorResult<R>>): Promise<IteratorResult<R>> => {
    const from = performance.now();
    return source.fill().then((more) => {
      // A read that took a slice waited for the network, and the page ran meanwhile.
      if (performance.now() - from > SLICE_MS) slice.restart();
      return more ? next() : { done: true, value: undefined };
    });
  };
  const nextPart = (): Promise<IteratorResult<T>> => {
    while (index >= buffer.length) {
      if (slice.spent) return slice.yield().then(nextPart);
      const unit = source.take();
      if (!unit) return fill(nextPart);
      buffer = unit;
      index = 0;
    }
    return Promise.resolve({ done: false, value: buffer[index++] as T });
  };
  const nextBatch = (): Promise<IteratorResult<T[]>> => {
    if (slice.spent) return slice.yield().then(nextBatch);
    const start = performance.now();
    const batch: T[] = buffer.slice(index);
    buffer = [];
    index = 0;
    for (let unit = source.take(); unit; unit = source.take()) {
      for (const part of unit) batch.push(part);
      // A chunk that takes more than a slice to decode is handed over in pieces.
      if (batch.length > 0 && performance.now() - start > SLICE_MS) break;
    }
    if (batch.length > 0) return Promise.resolve({ done: false, value: batch });
    return fill(nextBatch);
  };
  const parts: AsyncIterator<T> = { next: nextPart, return: done };
  const batches: AsyncIterator<T[]> = { next: nextBatch, return: done };
  return Object.assign(extra, {
    [Symbol.asyncIterator]: () => parts,
    batches: () => ({ [Symbol.asyncIterator]: () => batches }),
  });
}

/** Batches of a stream: its own when it has them, else each part alone. */
export function batchesOf<T>(stream: AsyncIterable<T> & { batches?: () => AsyncIterable<T[]> }): AsyncIterable<T[]> {
  if (typeof stream.batches === 'function') return stream.batches();
  return {
    [Symbol.asyncIterator]: () => {
      const parts = stream[Symbol.asyncIterator]();
      return {
        next: () =>
          parts.next().then((step): IteratorResult<T[]> => (step.done ? step : { done: false, value: [step.value] })),
        return: async () => {
          await parts.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
