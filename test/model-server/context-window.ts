/**
 * The test server's context window: how many tokens it counts in a request, and the 400 each
 * provider sends for a request longer than its window, in that provider's words and body.
 */
import type { WireFormat } from './wire-format';

type Obj = Record<string, unknown>;

/**
 * The request's size in tokens as this server counts them: its whole JSON body (fields, roles,
 * tools and all) at 3 characters a token. Deliberately not the agent's own estimate (characters
 * / 4 of the messages' text): a client has to learn the difference from the provider's refusals
 * and reported usage, as it does with a real tokenizer.
 */
export function tokensOf(body: Obj): number {
  return Math.ceil(JSON.stringify(body).length / 3);
}

/** The provider's refusal of a request of `sent` tokens for a window of `limit`. */
export function overflowAnswer(format: WireFormat, sent: number, limit: number): { status: number; body: Obj } {
  switch (format) {
    case 'openai-chat':
      return {
        status: 400,
        body: {
          error: {
            message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${sent} tokens. Please reduce the length of the messages.`,
            type: 'invalid_request_error',
            param: 'messages',
            code: 'context_length_exceeded',
          },
        },
      };
    case 'openai-responses':
      return {
        status: 400,
        body: {
          error: {
            message: 'Your input exceeds the context window of this model. Please adjust your input and try again.',
            type: 'invalid_request_error',
            param: 'input',
            code: 'context_length_exceeded',
          },
        },
      };
    case 'anthropic':
      return {
        status: 400,
        body: {
          type: 'error',
          error: { type: 'invalid_request_error', message: `prompt is too long: ${sent} tokens > ${limit} maximum` },
        },
      };
    case 'gemini':
      return {
        status: 400,
        body: {
          error: {
            code: 400,
            message: `The input token count (${sent}) exceeds the maximum number of tokens allowed (${limit}).`,
            status: 'INVALID_ARGUMENT',
          },
        },
      };
    case 'ollama':
      return { status: 400, body: { error: 'the input length exceeds the context length' } };
  }
}
