/**
 * The tools of the MCP test server: one for each kind of result an MCP client has to handle (text,
 * structured content, progress, cancellation, a tool error, an image, an embedded resource,
 * annotations) and one, `add_tool`, that changes the tool list while sessions run. Inputs are zod
 * schemas; session-server.ts has the SDK turn them into JSON Schema for tools/list.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolResult,
  ServerNotification,
  ServerRequest,
  ToolAnnotations,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

/** What a tool's handler gets from the SDK: the abort signal, the progress token, notifications. */
export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A cancellation the `slow` tool saw: its `tag` argument and the abort reason, as a string. */
export interface Cancellation {
  tag: string;
  reason: string;
}

/** What the tools of one running server share across its sessions (and what `/__reset` clears). */
export interface ToolState {
  /** Names added by `add_tool`, in the order they came: every session lists them after the built-ins. */
  added: Set<string>;
  cancellations: Cancellation[];
}

export interface TestTool<Input extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: Input;
  output?: z.ZodObject;
  annotations?: ToolAnnotations;
  run(args: z.output<Input>, extra: ToolExtra, state: ToolState): CallToolResult | Promise<CallToolResult>;
}

/** Types a tool's handler by its own input schema (in the array below, it would see `unknown`s). */
const tool = <Input extends z.ZodObject>(definition: TestTool<Input>): TestTool => definition;

const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });
const failure = (value: string): CallToolResult => ({ ...text(value), isError: true });

/** A 1x1 red PNG (8-bit RGB; chunk CRCs and the one inflated scanline, 00 ff 00 00, checked with zlib). */
export const RED_DOT_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC';

/** The order here is the order of tools/list (3 to a page). */
export const BUILT_IN_TOOLS: readonly TestTool[] = [
  tool({
    name: 'echo',
    description: 'Says the text back.',
    input: z.object({ text: z.string() }),
    annotations: { readOnlyHint: true },
    run: ({ text: said }) => text(`echo: ${said}`),
  }),
  tool({
    name: 'add',
    description: 'Adds two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    output: z.object({ sum: z.number() }),
    run: ({ a, b }) => ({ ...text(String(a + b)), structuredContent: { sum: a + b } }),
  }),
  tool({
    name: 'count',
    description: 'Counts to `to`, reporting each step as progress (when the caller asked for progress).',
    input: z.object({ to: z.number().int().min(1).max(20), delayMs: z.number().int().min(0).default(10) }),
    async run({ to, delayMs }, extra) {
      const progressToken = extra._meta?.progressToken;
      for (let step = 1; step <= to; step++) {
        if (step > 1) await sleep(delayMs, undefined, { signal: extra.signal });
        if (progressToken === undefined) continue;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress: step, total: to, message: `step ${step}` },
        });
      }
      return text(`counted to ${to}`);
    },
  }),
  tool({
    name: 'slow',
    description: 'Sleeps for `ms` unless cancelled first; cancellations are recorded (GET /__cancelled).',
    input: z.object({ ms: z.number().int().min(0), tag: z.string() }),
    async run({ ms, tag }, extra, state) {
      // Progress 0 once the wait has begun (if asked for): a test can cancel at that point, not after a guessed delay.
      const progressToken = extra._meta?.progressToken;
      if (progressToken !== undefined) {
        await extra.sendNotification({ method: 'notifications/progress', params: { progressToken, progress: 0 } });
      }
      try {
        await sleep(ms, undefined, { signal: extra.signal });
      } catch {
        state.cancellations.push({ tag, reason: String(extra.signal.reason) });
        // The SDK sends no response to a cancelled request: nobody reads this.
        return failure('cancelled');
      }
      return text(`slept ${ms}`);
    },
  }),
  tool({
    name: 'fail',
    description: 'Always fails, as a tool result (isError), not a protocol error.',
    input: z.object({}),
    run: () => failure('it broke on purpose'),
  }),
  tool({
    name: 'image',
    description: 'Returns a picture of a red dot.',
    input: z.object({}),
    run: () => ({
      content: [
        { type: 'text', text: 'a red dot' },
        { type: 'image', data: RED_DOT_PNG, mimeType: 'image/png' },
      ],
    }),
  }),
  tool({
    name: 'resource',
    description: 'Returns a note, embedded, and a link to it.',
    input: z.object({}),
    run: () => ({
      content: [
        { type: 'resource', resource: { uri: 'test://notes/1', mimeType: 'text/plain', text: 'note one' } },
        { type: 'resource_link', uri: 'test://notes/1', name: 'note-1', mimeType: 'text/plain' },
      ],
    }),
  }),
  tool({
    name: 'delete_file',
    description: 'Pretends to delete a file (it touches nothing): the tool a client should confirm first.',
    input: z.object({ path: z.string() }),
    annotations: { destructiveHint: true, readOnlyHint: false },
    run: ({ path }) => text(`deleted ${path}`),
  }),
  tool({
    name: 'add_tool',
    description: 'Adds a tool `name` (no input; says "<name> ran") for every session, and says the list changed.',
    input: z.object({ name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/) }),
    async run({ name }, extra, state) {
      if (findTool(state, name)) return failure(`tool '${name}' already exists`);
      state.added.add(name);
      // Through the request's extra, so the notification travels on this call's own response stream.
      // Without a related request (McpServer's own sendToolListChanged) it would go to the session's
      // GET stream, which a client may not have opened, and a stateless endpoint never has.
      await extra.sendNotification({ method: 'notifications/tools/list_changed' });
      return text(`added ${name}`);
    },
  }),
];

const BY_NAME = new Map(BUILT_IN_TOOLS.map((tool) => [tool.name, tool]));

/** A tool made by `add_tool`. */
function addedTool(name: string): TestTool {
  return { name, description: `Added by add_tool.`, input: z.object({}), run: () => text(`${name} ran`) };
}

/** Every tool, built-ins first, then the added ones in the order they came. */
export function allTools(state: ToolState): TestTool[] {
  return [...BUILT_IN_TOOLS, ...Array.from(state.added, addedTool)];
}

/** The tool called `name`, if any (a Map, so `toString` or `__proto__` is not found). */
export function findTool(state: ToolState, name: string): TestTool | undefined {
  return BY_NAME.get(name) ?? (state.added.has(name) ? addedTool(name) : undefined);
}
