/**
 * A run that reports events, read as an async iterable: the shape of `invoker.stream` and
 * `agent.stream`. The run goes under an AbortController of its own, so that the reader's `break`
 * (the iterator's `return`) can stop it; a caller's signal is followed with `followSignal`.
 */
import { EventQueue } from './event-queue';

/**
 * The events `produce` pushes, buffered until read. `break` aborts the run's controller with an
 * `AbortError` saying `stopped`, waits for `produce` to settle, and drops what it pushes after.
 * A rejection of `produce` fails the read that follows the events pushed before it.
 */
export function eventStream<T>(
  stopped: string,
  produce: (controller: AbortController, push: (event: T) => void) => Promise<void>,
): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator]: () => {
      const controller = new AbortController();
      const queue = new EventQueue<T>();
      let reading = true;
      const done = produce(controller, (event) => {
        if (reading) queue.push(event);
      }).then(
        () => queue.end(),
        (error: unknown) => queue.fail(error),
      );
      return {
        next: () => queue.next(),
        return: async () => {
          reading = false;
          controller.abort(new DOMException(stopped, 'AbortError'));
          await done;
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** Abort `controller` when `outer` aborts (now, if it has); returns what stops following it. */
export function followSignal(outer: AbortSignal | undefined, controller: AbortController): () => void {
  if (!outer) return () => {};
  if (outer.aborted) {
    controller.abort(outer.reason);
    return () => {};
  }
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  return () => outer.removeEventListener('abort', onAbort);
}
