import { MoatError } from '../errors/moat-error';
import { ModelStreamError } from '../errors/model-stream-error';
import type { AIMessage } from '../messages/types';
import type { StreamPart } from '../stream/stream-part';
import type { ModelStream } from './types';

/** What a client opens: the answer's parts, and the message they make. */
export interface OpenedStream extends AsyncIterable<StreamPart> {
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
  async function* run(): AsyncGenerator<StreamPart> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    if (signal?.aborted) throw signal.reason;
    signal?.addEventListener('abort', onAbort, { once: true });
    let good = 0;
    let skipped = 0;
    try {
      opened = await open(controller.signal);
      for await (const part of opened) {
        if (part.type !== 'error') {
          good++;
          yield part;
          continue;
        }
        if (part.code === 'provider-error')
          throw new ModelStreamError({ provider, reason: 'provider-error', detail: part.message });
        if (part.code === 'truncated') {
          throw good === 0
            ? malformed(provider, skipped)
            : new ModelStreamError({ provider, reason: 'truncated', detail: part.message });
        }
        skipped++;
        yield part;
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
  const parts = run();
  return {
    [Symbol.asyncIterator]: () => parts,
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
