import { MoatError } from '../errors/moat-error';
import { ModelStreamError } from '../errors/model-stream-error';
import type { AIMessage } from '../messages/types';
import { batchesOf } from '../stream/part-batches';
import type { StreamPart } from '../stream/stream-part';
import type { ModelStream } from './types';

/** What a client opens: the answer's parts, and the message they make. */
export interface OpenedStream extends AsyncIterable<StreamPart> {
  batches?(): AsyncIterable<StreamPart[]>;
  message(): AIMessage;
}

/**
 * A `ModelStream` around a client's `open`, which sends the request (lazily: on the first
 * `next()`) and returns the decoded answer. It adds what every client owes its caller:
 * - the caller's signal and `break` both cancel the request (a signal of its own is passed on);
 * - a stream that ends without its end event, carries the provider's error event, breaks off or
 *   holds only lines that are not its format is a `ModelStreamError`, never a quiet short answer;
 * - lines it could not read are passed on as `error` parts (the answer goes on without them).
 */
export function modelStream(
  provider: string,
  signal: AbortSignal | undefined,
  open: (signal: AbortSignal) => Promise<OpenedStream> | OpenedStream,
): ModelStream {
  let opened: OpenedStream | undefined;
  async function* run(batches: boolean): AsyncGenerator<StreamPart | StreamPart[]> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) throw signal.reason;
    signal?.addEventListener('abort', onAbort, { once: true });
    let good = 0;
    let skipped = 0;
    /** The error a part means, if any; counts what came. */
    const problem = (part: StreamPart): ModelStreamError | undefined => {
      if (part.type !== 'error') {
        good++;
        return undefined;
      }
      if (part.code === 'provider-error')
        return new ModelStreamError({ provider, reason: 'provider-error', detail: part.message });
      if (part.code === 'truncated') {
        return good === 0
          ? malformed(provider, skipped)
          : new ModelStreamError({ provider, reason: 'truncated', detail: part.message });
      }
      skipped++;
      return undefined;
    };
    try {
      opened = await open(controller.signal);
      if (batches) {
        for await (const batch of batchesOf(opened)) {
          for (let i = 0; i < batch.length; i++) {
            const error = problem(batch[i] as StreamPart);
            if (!error) continue;
            if (i > 0) yield batch.slice(0, i);
            throw error;
          }
          yield batch;
        }
      } else {
        for await (const part of opened) {
          const error = problem(part);
          if (error) throw error;
          yield part;
        }
      }
      if (good === 0) throw malformed(provider, skipped);
    } catch (error) {
      if (controller.signal.aborted) throw controller.signal.reason;
      if (MoatError.isInstance(error)) throw error;
      throw new ModelStreamError({
        provider,
        reason: 'broken',
        detail: `the answer broke off (${error instanceof Error ? error.message : String(error)})`,
        cause: error,
      });
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // Cancels the request when the consumer stopped early; harmless once it has ended.
      controller.abort(new DOMException('The model stream was closed', 'AbortError'));
    }
  }
  let parts: AsyncGenerator<StreamPart> | undefined;
  let batches: AsyncGenerator<StreamPart[]> | undefined;
  return {
    [Symbol.asyncIterator]: () => {
      parts ??= run(false) as AsyncGenerator<StreamPart>;
      return parts;
    },
    batches: () => ({
      [Symbol.asyncIterator]: () => {
        batches ??= run(true) as AsyncGenerator<StreamPart[]>;
        return batches;
      },
    }),
    message() {
      if (!opened) throw new TypeError('message() is known once the stream has been read');
      return opened.message();
    },
  };
}

function malformed(provider: string, skipped: number): ModelStreamError {
  return new ModelStreamError({
    provider,
    reason: 'malformed',
    detail:
      skipped === 0
        ? 'the answer was empty'
        : `none of its ${skipped} event${skipped === 1 ? '' : 's'} was in the format the client expects`,
  });
}
