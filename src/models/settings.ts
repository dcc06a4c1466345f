import { describeValue } from '../errors/moat-error';
import { checkCount, checkSignal } from '../errors/option-checks';
import { isPlainObject } from '../json/json-value';
import { systemMessage } from '../messages/constructors';
import type { Message } from '../messages/types';
import type { ChatModel, ModelInfoOptions, ModelRequest, ModelSettings, ToolChoice } from './types';

const SETTING_KEYS = ['temperature', 'maxTokens', 'toolChoice', 'parallelToolCalls', 'providerOptions'] as const;

/**
 * The request with the client's defaults under it, checked: a bad setting is a `TypeError` that
 * names it, thrown before anything is sent.
 */
export function resolveRequest(defaults: ModelSettings, request: ModelRequest): ModelRequest {
  if (!isPlainObject(request)) throw new TypeError(`Expected a model request object, got ${describeValue(request)}`);
  if (!Array.isArray(request.messages))
    throw new TypeError(`Expected \`messages\` to be a list, got ${describeValue(request.messages)}`);
  if (request.tools !== undefined && !Array.isArray(request.tools))
    throw new TypeError(`Expected \`tools\` to be a list of tool specs, got ${describeValue(request.tools)}`);
  if (request.system !== undefined && typeof request.system !== 'string')
    throw new TypeError(`Expected \`system\` to be a string, got ${describeValue(request.system)}`);
  if (
    request.output !== undefined &&
    !(isPlainObject(request.output) && typeof request.output.name === 'string' && isPlainObject(request.output.schema))
  )
    throw new TypeError(`Expected \`output\` to be { name, schema }, got ${describeValue(request.output)}`);
  checkSignal(request.signal);
  const out: ModelRequest = { ...request };
  for (const key of SETTING_KEYS) {
    if (out[key] === undefined && defaults[key] !== undefined)
      (out as unknown as Record<string, unknown>)[key] = defaults[key];
  }
  checkSettings(out);
  return out;
}

/** Throws a `TypeError` naming the first setting that is wrong. */
export function checkSettings(settings: ModelSettings): void {
  const { temperature, maxTokens, toolChoice, parallelToolCalls, providerOptions } = settings;
  if (temperature !== undefined && (typeof temperature !== 'number' || !(temperature >= 0)))
    throw new TypeError(`Expected \`temperature\` to be a number of at least 0, got ${describeValue(temperature)}`);
  if (maxTokens !== undefined) checkCount('maxTokens', maxTokens, { min: 1 });
  if (toolChoice !== undefined && !isToolChoice(toolChoice))
    throw new TypeError(
      `Expected \`toolChoice\` to be 'auto', 'required', 'none' or { name }, got ${describeValue(toolChoice)}`,
    );
  if (parallelToolCalls !== undefined && typeof parallelToolCalls !== 'boolean')
    throw new TypeError(`Expected \`parallelToolCalls\` to be a boolean, got ${describeValue(parallelToolCalls)}`);
  if (providerOptions !== undefined && !isPlainObject(providerOptions))
    throw new TypeError(`Expected \`providerOptions\` to be an object, got ${describeValue(providerOptions)}`);
}

function isToolChoice(value: unknown): value is ToolChoice {
  return (
    value === 'auto' ||
    value === 'required' ||
    value === 'none' ||
    (isPlainObject(value) && typeof value.name === 'string' && value.name !== '')
  );
}

/** The history with the request's system prompt in front (converters lift it where the provider wants it). */
export function historyOf(request: ModelRequest): Message[] {
  return request.system ? [systemMessage(request.system), ...request.messages] : [...request.messages];
}

/**
 * `extra` merged into `body`: objects merge key by key, anything else replaces. Own keys only,
 * written as data (a `__proto__` key stays a key).
 */
export function mergeBody(body: Record<string, unknown>, extra: Record<string, unknown> | undefined): void {
  if (!extra) return;
  for (const key of Object.keys(extra)) {
    const value = extra[key];
    const current = Object.hasOwn(body, key) ? body[key] : undefined;
    if (isPlainObject(current) && isPlainObject(value)) mergeBody(current, value);
    else Object.defineProperty(body, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

/** Put each defined entry on the body (`undefined` settings send nothing). */
export function setDefined(body: Record<string, unknown>, entries: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) body[key] = value;
}

/** The settings part of a client's options: its defaults for every request. */
export function settingsOf(options: ModelSettings): ModelSettings {
  const { temperature, maxTokens, toolChoice, parallelToolCalls, providerOptions } = options;
  const settings: ModelSettings = {};
  setDefined(settings as Record<string, unknown>, {
    temperature,
    maxTokens,
    toolChoice,
    parallelToolCalls,
    providerOptions,
  });
  checkSettings(settings);
  return settings;
}

/** `model` with its context window from `options`, checked (a `TypeError` when it is not a count). */
export function withContextWindow(model: ChatModel, options: ModelInfoOptions): ChatModel {
  if (options.contextWindow === undefined) return model;
  return { ...model, contextWindow: checkCount('contextWindow', options.contextWindow, { min: 1 }) };
}

/** The options every client takes, checked: a `TypeError` names the bad one. */
export function checkModelOptions(options: { model?: unknown; baseURL?: unknown; apiKey?: unknown }, client: string) {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`${client} takes an options object, got ${describeValue(options)}`);
  if (typeof options.model !== 'string' || options.model === '')
    throw new TypeError(`Expected \`model\` to be a model name, got ${describeValue(options.model)}`);
  // A path ('/api/model') is a route on the page's own origin (moat-sdk/server's proxy, say), which
  // the browser's fetch resolves against the page; '//host' would be another origin, so not that.
  if (
    options.baseURL !== undefined &&
    (typeof options.baseURL !== 'string' || !/^(https?:\/\/|\/(?!\/))/.test(options.baseURL))
  )
    throw new TypeError(
      `Expected \`baseURL\` to be an http(s) URL or a path on the page's origin ('/api/model'), got ${describeValue(options.baseURL)}`,
    );
  if (options.apiKey !== undefined && typeof options.apiKey !== 'string')
    throw new TypeError('Expected `apiKey` to be a string');
}
