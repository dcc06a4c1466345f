import { isPlainObject } from '../json/json-value';
import type { AIMessage } from '../messages/types';
import { MessageBuilder } from './message-builder';
import type { StreamFormat, StreamPart } from './stream-part';

/**
 * Turns one provider's stream events into `StreamPart`s and, at the end, an `AIMessage`.
 * `push` takes one event as a parsed JSON value (what one SSE `data:` line or NDJSON line holds)
 * and never throws: anything malformed is skipped with an `error` part.
 */
export interface StreamDecoder {
  readonly format: StreamFormat;
  /** One provider event → the parts it produces (often none, sometimes several). */
  push(event: unknown): StreamPart[];
  /**
   * The input ended: close calls still open and emit the `finish` part if the provider did not
   * already end the message (or a `truncated` diagnostic when it never said why it stopped).
   */
  flush(): StreamPart[];
  /** The message as it stands, tool calls with their arguments parsed best-effort. */
  snapshot(): AIMessage;
  /**
   * Flush, then the final message. A call cut off mid-arguments is an `InvalidToolCall` carrying
   * the text received; a call whose arguments are complete JSON is kept even when its end event
   * never came.
   */
  finish(): AIMessage;
}

/** The shared shell: error containment, flush and the message. Formats implement `handle`. */
export abstract class BaseDecoder implements StreamDecoder {
  abstract readonly format: StreamFormat;
  protected readonly builder = new MessageBuilder();
  #flushed = false;

  /** Translate one well-formed (object) event. May throw: `push` contains it. */
  protected abstract handle(event: Record<string, unknown>): StreamPart[];

  /** Extra work at the end of input, before open calls close (OpenAI's pending usage, say). */
  protected beforeFlush(): StreamPart[] {
    return [];
  }

  push(event: unknown): StreamPart[] {
    if (this.#flushed) {
      return [
        {
          type: 'error',
          code: 'malformed-event',
          message: 'Event after the end of the stream was ignored.',
          raw: event,
        },
      ];
    }
    if (!isPlainObject(event)) {
      return [
        {
          type: 'error',
          code: 'malformed-event',
          message: `Expected a JSON object event, got ${describe(event)}.`,
          raw: event,
        },
      ];
    }
    try {
      return this.handle(event);
    } catch (error) {
      return [
        {
          type: 'error',
          code: 'malformed-event',
          message: `Event skipped: ${error instanceof Error ? error.message : String(error)}`,
          raw: event,
        },
      ];
    }
  }

  flush(): StreamPart[] {
    if (this.#flushed) return [];
    this.#flushed = true;
    const parts = [...this.beforeFlush(), ...this.builder.endAll()];
    if (this.builder.finished) return parts;
    if (this.builder.stopReason === undefined) {
      parts.push({
        type: 'error',
        code: 'truncated',
        message: 'The stream ended before the provider said why the message stopped.',
      });
      return parts;
    }
    return [...parts, ...this.builder.finishPart()];
  }

  snapshot(): AIMessage {
    return this.builder.message(true);
  }

  finish(): AIMessage {
    this.flush();
    return this.builder.message(false);
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
}

/** A provider `error` event as a diagnostic part. */
export function providerError(raw: unknown): StreamPart {
  const e = isPlainObject(raw) ? raw : {};
  const inner = isPlainObject(e.error) ? e.error : e;
  const message = typeof inner.message === 'string' ? inner.message : JSON.stringify(raw);
  return { type: 'error', code: 'provider-error', message: `The provider reported an error: ${message}`, raw };
}
