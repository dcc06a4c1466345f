import { ModelHTTPError } from './model-http-error';

/**
 * The words each provider refuses a request too long for its context with (a 400, or 413), as
 * their APIs say them:
 * - OpenAI (both APIs): code `context_length_exceeded`, "This model's maximum context length is
 *   8192 tokens. However, your messages resulted in 9013 tokens" / "Your input exceeds the
 *   context window of this model";
 * - Anthropic: "prompt is too long: 208310 tokens > 200000 maximum" (and 413 `request_too_large`);
 * - Gemini: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576)";
 * - Ollama: "the input length exceeds the context length"; llama.cpp's server (its OpenAI
 *   endpoint): "the request exceeds the available context size".
 */
const OVERFLOW =
  /context_length_exceeded|maximum context length|exceeds the context window|prompt is too long|input token count.*exceeds the maximum|exceeds the (?:available )?context (?:length|size)|request_too_large/i;

/**
 * Whether a model call failed because the request was longer than the model's context: the
 * agent then sends less and tries again.
 *
 * @example if (isContextOverflow(error)) history = fitContext(history, { window, reserve }).messages;
 */
export function isContextOverflow(error: unknown): error is ModelHTTPError {
  if (!ModelHTTPError.isInstance(error)) return false;
  const { status, body } = error as ModelHTTPError;
  return (status === 400 || status === 413) && OVERFLOW.test(body);
}

/**
 * What the refusal says of the sizes, when it says: the tokens the request came to and the
 * context's limit (OpenAI, Anthropic and Gemini quote both). The agent learns from them how far
 * its estimate was off.
 */
export function overflowFigures(error: ModelHTTPError): { sent: number; limit: number } | undefined {
  const body = error.body;
  const openai = /maximum context length is (\d+) tokens.*?resulted in (\d+) tokens/is.exec(body);
  if (openai) return { limit: Number(openai[1]), sent: Number(openai[2]) };
  const claude = /prompt is too long: (\d+) tokens > (\d+)/i.exec(body);
  if (claude) return { sent: Number(claude[1]), limit: Number(claude[2]) };
  const google = /input token count \((\d+)\) exceeds the maximum number of tokens allowed \((\d+)\)/i.exec(body);
  if (google) return { sent: Number(google[1]), limit: Number(google[2]) };
  return undefined;
}
