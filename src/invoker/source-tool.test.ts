import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool } from '../../worker/define-tool';
import type { ToolSpec } from '../providers/tool-spec';
import { ToolInvoker } from './tool-invoker';
import type { ToolOutcome, ToolSource, ToolSourceRuntime } from './types';

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
});
