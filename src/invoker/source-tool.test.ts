import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool } from '../../worker/define-tool';
import { ToolOutputLimitError } from '../errors/tool-output-limit-error';
import { OUTPUT_LIMITS } from '../pool/output-budget';
import type { ToolSpec } from '../providers/tool-spec';
import { ToolInvoker } from './tool-invoker';
import type { PageTool, ToolEvent, ToolOutcome, ToolSource, ToolSourceRuntime } from './types';

/** A source whose tools, answers and changes the test controls. */
function fakeSource(names: string[], answer: (name: string, runtime: ToolSourceRuntime) => Promise<ToolOutcome>) {
  const listeners = new Set<() => void>();
  let tools = names;
  let listing: (() => void) | undefined;
  let hold = false;
  const source: ToolSource & { set(next: string[]): void; holdNextList(): () => void; lists: number } = {
    kind: 'tool-source',
    name: 'fake source',
    lists: 0,
    async specs(): Promise<ToolSpec[]> {
      source.lists++;
      const now = tools;
      if (hold) {
        hold = false;
        await new Promise<void>((resolve) => {
          listing = resolve;
        });
      }
      return now.map((name) => ({ name, description: name, inputSchema: { type: 'object' } }));
    },
    call: (call, runtime) => answer(call.name, runtime),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    set(next) {
      tools = next;
      for (const listener of listeners) listener();
    },
    holdNextList() {
      hold = true;
      return () => listing?.();
    },
  };
  return source;
}

const ok = async (name: string): Promise<ToolOutcome> => ({ content: `${name} ran` });
const inline = defineTool({ name: 'mine', description: 'mine', input: z.object({}), run: () => 'my own' });

describe('tool sources in the invoker', () => {
  it("routes each call to its source; the app's own tool wins a name a source offers too", async () => {
    const source = fakeSource(['theirs', 'mine'], ok);
    const invoker = new ToolInvoker({ tools: [source], inlineTools: [inline] });
    expect((await invoker.specs()).map((s) => s.name).sort()).toEqual(['mine', 'theirs']);
    const { messages } = await invoker.run([
      { id: '1', name: 'theirs', args: {} },
      { id: '2', name: 'mine', args: {} },
    ]);
    expect(messages.map((m) => m.content)).toEqual(['theirs ran', 'my own']);
  });

  it('lists again after a change, and a listing made stale by a change is not kept', async () => {
    const source = fakeSource(['a'], ok);
    const invoker = new ToolInvoker({ tools: [source] });
    const first = await invoker.specs();
    expect(await invoker.specs()).toBe(first);
    const release = source.holdNextList();
    source.set(['b']);
    const stale = invoker.specs(); // lists ['b'], held
    source.set(['c']); // changed again before that listing ended
    const fresh = await invoker.specs();
    release();
    expect((await stale).map((s) => s.name)).toEqual(['b']);
    expect(fresh.map((s) => s.name)).toEqual(['c']);
    expect((await invoker.specs()).map((s) => s.name)).toEqual(['c']);
  });

  it('stops a call on time even when the source ignores its signal, and tells the source', async () => {
    let seen: AbortSignal | undefined;
    const source = fakeSource(['hang'], (_, runtime) => {
      seen = runtime.signal;
      return new Promise(() => {});
    });
    const invoker = new ToolInvoker({ tools: [source], timeoutMs: 20, onError: 'throw' });
    await expect(invoker.run([{ id: 'h', name: 'hang', args: {} }])).rejects.toMatchObject({
      name: 'ToolTimeoutError',
      timeoutMs: 20,
    });
    expect(seen?.aborted).toBe(true);

    const controller = new AbortController();
    const running = new ToolInvoker({ tools: [source] }).run([{ id: 'g', name: 'hang', args: {} }], {
      signal: controller.signal,
    });
    controller.abort(new Error('stopped by the person'));
    await expect(running).rejects.toThrow('stopped by the person');
  });

  it('passes progress on as tool-output-delta events, and refuses what is not a source', async () => {
    const source = fakeSource(['tick'], async (name, runtime) => {
      runtime.emit({ progress: 1 });
      return { content: name };
    });
    const events = [];
    for await (const event of new ToolInvoker({ tools: [source] }).stream([{ id: 't', name: 'tick', args: {} }]))
      events.push(event);
    expect(events).toContainEqual({ type: 'tool-output-delta', toolCallId: 't', delta: { progress: 1 } });
    expect(() => new ToolInvoker({ tools: [{ name: 'x' } as never] })).toThrow(/tool sources \(mcpServer/);
  });

  it("counts each answer in the turn's maxTurnSize: the call past it fails with ToolOutputLimitError, the next turn runs", async () => {
    // An MCP answer may be 32 MB, a page's WebMCP tool's anything: they were counted nowhere.
    const big = 'x'.repeat(20 * 2 ** 20);
    const source = fakeSource(['big'], async () => ({ content: big }));
    const invoker = new ToolInvoker({ tools: [source] });
    const events: ToolEvent[] = [];
    const calls = [
      { id: 'b1', name: 'big', args: {} },
      { id: 'b2', name: 'big', args: {} },
    ];
    for await (const event of invoker.stream(calls)) events.push(event);
    const ends = events.filter((e) => e.type === 'tool-finished' || e.type === 'tool-error');
    expect(ends.map((e) => [e.type, 'toolCallId' in e && e.toolCallId])).toEqual([
      ['tool-finished', 'b1'],
      ['tool-error', 'b2'],
    ]);
    const refused = ends[1] as Extract<ToolEvent, { type: 'tool-error' }>;
    expect(refused.error).toBeInstanceOf(ToolOutputLimitError);
    expect(refused.error).toMatchObject({ limit: 'turn', maxSize: OUTPUT_LIMITS.maxTurnSize });
    expect(refused.message?.content).toMatch(/^Error: Tool 'big' \(call b2\) sent back too much/);
    const next = await invoker.run([{ id: 'b3', name: 'big', args: {} }]);
    expect(next.messages[0]?.status).toBe('success');
  });

  it("counts a page tool's outcome and its calls' answers in the turn of its call", async () => {
    const source = fakeSource(['big'], async () => ({ content: 'x'.repeat(20 * 2 ** 20) }));
    const page: PageTool = {
      kind: 'page-tool',
      name: 'twice',
      describe: () => ({ name: 'twice', description: 'twice', inputSchema: { type: 'object' } }),
      run: async (_args, runtime) => {
        const first = await runtime.call('big', {});
        const second = await runtime.call('big', {});
        return { content: `${first.status} ${second.status}`, artifact: [first.content, second.content] };
      },
    };
    const invoker = new ToolInvoker({ tools: [source], inlineTools: [page] });
    const events: ToolEvent[] = [];
    const { messages } = await invoker.run([{ id: 'p', name: 'twice', args: {} }], {
      onEvent: (event) => events.push(event),
    });
    const nested = events.filter((e) => e.type === 'tool-finished' || e.type === 'tool-error');
    expect(nested.map((e) => [e.type, 'toolCallId' in e && e.toolCallId])).toEqual([
      ['tool-finished', 'p.1'],
      ['tool-error', 'p.2'],
      ['tool-error', 'p'],
    ]);
    expect((nested[1] as { error: Error }).error).toMatchObject({ name: 'ToolOutputLimitError', limit: 'turn' });
    // The second answer is over the turn; the first, kept in the page tool's artifact, is counted
    // once more with the page tool's outcome: 40 Mi with the first answer, past 32 Mi.
    expect(messages[0]?.status).toBe('error');
    expect(messages[0]?.content).toMatch(/^Error: Tool 'twice' \(call p\) sent back too much/);
  });
});
