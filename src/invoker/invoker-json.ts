/**
 * An invoker's configuration as JSON (Haystack's to_dict / from_dict): what is data is written,
 * what is code (interceptors, tools, functions) is passed again when it is read back.
 */
import type { ResultFormat } from '../pool/protocol';
import { type OnErrorJSON, onErrorFromJSON, onErrorToJSON } from './error-policy';
import type { OnError, Reducer, ToolInvokerOptions } from './types';

/** The serializable part of an invoker's configuration (`toJSON` / `fromJSON`). */
export interface ToolInvokerJSON {
  onError: OnErrorJSON;
  resultFormat?: ResultFormat;
  maxConcurrency?: number;
  messagesKey: string;
  reducers: Record<string, 'replace' | 'append'>;
  timeoutMs?: number;
  /** Names only: the tools themselves are code, passed again to `fromJSON`. */
  inlineTools: string[];
}

/** What of an invoker's configuration `invokerToJSON` writes. */
export interface InvokerConfig {
  onError: OnError;
  resultFormat: ResultFormat | undefined;
  maxConcurrency: number;
  messagesKey: string;
  reducers: Record<string, Reducer>;
  timeoutMs: number | undefined;
  inlineTools: Iterable<string>;
}

/** The configuration as JSON; a TypeError for a part that is a function. */
export function invokerToJSON(config: InvokerConfig): ToolInvokerJSON {
  const reducers: Record<string, 'replace' | 'append'> = {};
  for (const [key, reducer] of Object.entries(config.reducers)) {
    if (typeof reducer === 'function')
      throw new TypeError(`The reducer of state key '${key}' is a function: it cannot be written as JSON`);
    reducers[key] = reducer;
  }
  const json: ToolInvokerJSON = {
    onError: onErrorToJSON(config.onError),
    messagesKey: config.messagesKey,
    reducers,
    inlineTools: [...config.inlineTools],
  };
  if (config.resultFormat) json.resultFormat = config.resultFormat;
  if (Number.isFinite(config.maxConcurrency)) json.maxConcurrency = config.maxConcurrency;
  if (config.timeoutMs !== undefined) json.timeoutMs = config.timeoutMs;
  return json;
}

/** The parts of an invoker that are code, given again to `fromJSON`. */
export type InvokerCodeParts = Pick<ToolInvokerOptions, 'pool' | 'inlineTools' | 'tools' | 'interceptors' | 'store'>;

/** The options `invokerToJSON`'s data and the code parts make; a TypeError for an inline tool it names and is not given. */
export function invokerOptionsFromJSON(json: ToolInvokerJSON, parts: InvokerCodeParts): ToolInvokerOptions {
  const onError = onErrorFromJSON(json.onError);
  const missing = json.inlineTools.filter((name) => !(parts.inlineTools ?? []).some((t) => t.name === name));
  if (missing.length > 0) throw new TypeError(`fromJSON needs the inline tools it names: ${missing.join(', ')}`);
  const options: ToolInvokerOptions = { ...parts, onError, messagesKey: json.messagesKey, reducers: json.reducers };
  if (json.resultFormat) options.resultFormat = json.resultFormat;
  if (json.maxConcurrency !== undefined) options.maxConcurrency = json.maxConcurrency;
  if (json.timeoutMs !== undefined) options.timeoutMs = json.timeoutMs;
  return options;
}
