/**
 * `codeTool(sandbox, { tools })`: the sandbox as a tool a model can call ("code mode"). The
 * model writes one script; inside it the app's tools are async functions of an object `tools`
 * (`await tools.multiply({ a: 3, b: 12 })`), each call going through the invoker like a model's
 * call. Described by JSON Schema: no zod on the page.
 */
import { describeValue } from '../errors/moat-error';
import type { PageTool } from '../invoker/types';
import { isPlainObject } from '../json/json-value';
import { textOf } from '../messages/text-of';
import type { WorkerPool } from '../pool/worker-pool';
import type { JSONSchema, ToolSpec } from '../providers/tool-spec';
import type { CodeSandbox, LogEntry } from './code-sandbox';

export interface CodeToolOptions {
  /**
   * The tools the code may call: a pool (all of its tools), or their names. Default: none (the
   * code only computes).
   */
  tools?: WorkerPool | readonly string[];
  /** Default `'run_javascript'`. */
  name?: string;
  /** Said before the generated part of the description. */
  description?: string;
}

/** A tool call the script made, as its artifact keeps it (a thread drawn again shows it). */
export interface NestedCall {
  toolCallId: string;
  name: string;
  args: unknown;
  /**
   * The tool message's content (the result, or the error the script saw), up to its first
   * `NESTED_CONTENT_CHARS` characters, then a note of its whole length. The script got it whole.
   */
  content: string;
  ok: boolean;
}

/** The artifact of a successful run: its value, its console, and the tool calls it made, in order of completion. */
export interface CodeArtifact {
  value: unknown;
  logs: LogEntry[];
  calls: NestedCall[];
}

/**
 * How much of each call's text the artifact keeps: enough to show the call, where a script
 * looping over a tool of a few MiB would otherwise keep all of them in the thread.
 */
export const NESTED_CONTENT_CHARS = 2_000;

const DEFAULT_DESCRIPTION =
  'Run JavaScript in a sandbox: no network, no DOM, no storage. The value of the last expression (or of `return`) is the result; console output is returned too; top-level `await` works; each run starts afresh (nothing persists between runs).';

/** A page tool for `new ToolInvoker({ pool, inlineTools: [codeTool(sandbox, { tools: pool })] })`. */
export function codeTool(sandbox: CodeSandbox, options: CodeToolOptions = {}): PageTool {
  if (typeof sandbox?.run !== 'function')
    throw new TypeError(`codeTool takes a code sandbox (createCodeSandbox()), got ${describeValue(sandbox)}`);
  const name = options.name ?? 'run_javascript';
  const { tools } = options;
  const allowed = (others: readonly ToolSpec[]): ToolSpec[] =>
    tools === undefined
      ? []
      : Array.isArray(tools)
        ? others.filter((s) => (tools as readonly string[]).includes(s.name))
        : others.filter((s) => s.isolated !== false);
  return {
    kind: 'page-tool',
    name,
    describe(others) {
      const specs = allowed(others);
      const lines = specs.map((s) => `- \`await tools.${s.name}(${signatureOf(s.inputSchema)})\`: ${s.description}`);
      return {
        name,
        description: [
          options.description ?? DEFAULT_DESCRIPTION,
          ...(lines.length > 0
            ? [
                "Inside the code these tools are async functions of the object `tools`; they resolve with the tool's result and throw when it fails. Prefer one script that calls several tools and combines their results:",
                ...lines,
              ]
            : []),
        ].join('\n'),
        inputSchema: {
          type: 'object',
          properties: { code: { type: 'string', description: 'The JavaScript to run.' } },
          required: ['code'],
          additionalProperties: false,
        },
      };
    },
    async run(args, runtime) {
      const code = args.code;
      if (typeof code !== 'string') throw new TypeError(`Expected \`code\` to be a string, got ${describeValue(code)}`);
      const calls: NestedCall[] = [];
      const result = await sandbox.run(code, {
        signal: runtime.signal,
        onOutput: (entry) => runtime.emit(entry),
        tools: {
          names: allowed(runtime.tools.filter((s) => s.name !== name)).map((s) => s.name),
          call: async (tool, toolArgs, signal) => {
            const message = await runtime.call(tool, toolArgs, { signal });
            const text = textOf(message.content);
            calls.push({
              toolCallId: message.toolCallId,
              name: message.name ?? tool,
              args: toolArgs,
              content: shortened(text),
              ok: message.status !== 'error',
            });
            if (message.status === 'error') throw new Error(text);
            try {
              return JSON.parse(text) as unknown;
            } catch {
              return text;
            }
          },
        },
      });
      const artifact: CodeArtifact = { value: result.value, logs: result.logs, calls };
      return { content: report(result.value, result.logs), artifact };
    },
  };
}

function shortened(text: string): string {
  if (text.length <= NESTED_CONTENT_CHARS) return text;
  return `${text.slice(0, NESTED_CONTENT_CHARS)}… (${text.length.toLocaleString('en-US')} characters in all)`;
}

/** What the model reads: the result, then the console. */
function report(value: unknown, logs: readonly LogEntry[]): string {
  const parts = [`Result: ${value === undefined ? 'undefined' : JSON.stringify(value)}`];
  if (logs.length > 0)
    parts.push(`Console:\n${logs.map((l) => (l.level === 'log' ? l.text : `[${l.level}] ${l.text}`)).join('\n')}`);
  return parts.join('\n');
}

/** `{ a: number, b?: string }` from a JSON Schema, for the description. */
export function signatureOf(schema: JSONSchema, depth = 0): string {
  if (!isPlainObject(schema)) return 'unknown';
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
    return ((schema.anyOf ?? schema.oneOf) as JSONSchema[]).map((s) => signatureOf(s, depth)).join(' | ');
  const type = schema.type;
  if (type === 'array') return `${signatureOf(schema.items as JSONSchema, depth)}[]`;
  if (type === 'object' || isPlainObject(schema.properties)) {
    const properties = isPlainObject(schema.properties) ? (schema.properties as Record<string, JSONSchema>) : {};
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const entries = Object.entries(properties);
    if (entries.length === 0) return depth === 0 ? '' : '{}';
    if (depth > 2) return 'object';
    return `{ ${entries.map(([k, s]) => `${k}${required.has(k) ? '' : '?'}: ${signatureOf(s, depth + 1)}`).join(', ')} }`;
  }
  if (Array.isArray(type)) return type.join(' | ');
  return typeof type === 'string' ? (type === 'integer' ? 'number' : type) : 'unknown';
}
