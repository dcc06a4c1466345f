/**
 * What a `ToolInvoker` is given, checked: its options (a bad one is a `TypeError` naming it, at
 * construction), a turn's options, and the request an interceptor sees.
 */
import { isToolDefinition, type ToolDefinition } from '../../worker/define-tool';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { describeValue } from '../errors/moat-error';
import { checkCallback, checkCount, checkDuration, checkResultFormat, checkSignal } from '../errors/option-checks';
import { isPlainObject } from '../json/json-value';
import type { ToolCall } from '../messages/types';
import type { ResultFormat } from '../pool/protocol';
import type { WorkerPool } from '../pool/worker-pool';
import type { ToolSpec } from '../providers/tool-spec';
import type { Store } from '../store/types';
import { checkOnError } from './error-policy';
import { isPageTool } from './page-tool';
import { isToolSource } from './source-tool';
import type {
  Interceptor,
  OnError,
  PageTool,
  Reducer,
  RunOptions,
  ToolInvokerOptions,
  ToolRequest,
  ToolSource,
} from './types';

export interface InvokerConfig {
  pool: WorkerPool | undefined;
  inline: Map<string, ToolDefinition | PageTool>;
  sources: readonly ToolSource[];
  onError: OnError;
  resultFormat: ResultFormat | undefined;
  maxConcurrency: number;
  interceptors: readonly Interceptor[];
  store: Store | undefined;
  messagesKey: string;
  reducers: Record<string, Reducer>;
  timeoutMs: number | undefined;
}

export function resolveInvokerOptions(options: ToolInvokerOptions<never>): InvokerConfig {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`Expected ToolInvoker options to be an object, got ${describeValue(options)}`);
  for (const list of ['inlineTools', 'tools', 'interceptors'] as const) {
    if (options[list] !== undefined && !Array.isArray(options[list]))
      throw new TypeError(`Expected \`${list}\` to be a list, got ${describeValue(options[list])}`);
  }
  const sources = [...(options.tools ?? [])];
  for (const source of sources) {
    if (!isToolSource(source))
      throw new TypeError(
        `Expected \`tools\` to hold tool sources (mcpServer(…), pageTools()), got ${describeValue(source)}`,
      );
  }
  if (options.pool === undefined && (options.inlineTools?.length ?? 0) === 0 && sources.length === 0) {
    throw new TypeError('A ToolInvoker needs a pool, inline tools or tool sources');
  }
  const inline = new Map<string, ToolDefinition | PageTool>();
  for (const tool of options.inlineTools ?? []) {
    if (!isToolDefinition(tool) && !isPageTool(tool))
      throw new TypeError(`Expected inline tools made by defineTool() or codeTool(), got ${describeValue(tool)}`);
    if (inline.has(tool.name))
      throw new InvalidToolSpecError({ toolName: tool.name, reason: 'two inline tools have this name' });
    inline.set(tool.name, tool);
  }
  const interceptors = [...(options.interceptors ?? [])];
  for (const interceptor of interceptors) {
    if (typeof interceptor !== 'function')
      throw new TypeError(`Expected interceptors to be functions, got ${describeValue(interceptor)}`);
  }
  const messagesKey = options.messagesKey ?? 'messages';
  if (typeof messagesKey !== 'string' || messagesKey === '')
    throw new TypeError(`Expected \`messagesKey\` to be a non-empty string, got ${describeValue(messagesKey)}`);
  const reducers = { ...options.reducers };
  for (const [key, reducer] of Object.entries(reducers)) {
    if (reducer !== 'replace' && reducer !== 'append' && typeof reducer !== 'function')
      throw new TypeError(
        `Expected the reducer of state key '${key}' to be 'replace', 'append' or a function, got ${describeValue(reducer)}`,
      );
  }
  return {
    pool: options.pool as WorkerPool | undefined,
    inline,
    sources,
    onError: checkOnError(options.onError ?? 'return'),
    resultFormat: checkResultFormat(options.resultFormat),
    maxConcurrency: checkCount('maxConcurrency', options.maxConcurrency ?? Infinity, { min: 1, infinite: true }),
    interceptors,
    store: options.store,
    messagesKey,
    reducers,
    timeoutMs: options.timeoutMs === undefined ? undefined : checkDuration('timeoutMs', options.timeoutMs),
  };
}

/** Throws a TypeError naming the first of a turn's options that is wrong. */
export function checkRunOptions(options: RunOptions): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`Expected run options to be an object, got ${describeValue(options)}`);
  if (options.state !== undefined && !isPlainObject(options.state))
    throw new TypeError(`Expected \`state\` to be a plain object, got ${describeValue(options.state)}`);
  checkSignal(options.signal);
  checkCallback(options.onEvent, 'onEvent');
}

export function makeRequest(
  toolCall: ToolCall,
  spec: ToolSpec | undefined,
  state: unknown,
  context: unknown,
  timeoutMs: number | undefined,
): ToolRequest {
  return {
    toolCall,
    spec,
    state,
    context,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
    override(changes) {
      return makeRequest(
        changes.toolCall ?? toolCall,
        spec,
        'state' in changes ? changes.state : state,
        'context' in changes ? changes.context : context,
        'timeoutMs' in changes ? changes.timeoutMs : timeoutMs,
      );
    },
  };
}
