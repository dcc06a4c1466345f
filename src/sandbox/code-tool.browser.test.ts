// Code mode: a scripted model writes one script that calls two of the pool's tools; an
// interceptor blocks one; the nested calls are events of their own under the script's call.
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/agent';
import type { AgentEvent } from '../agent/types';
import { ToolDeniedError } from '../errors/tool-denied-error';
import { ToolOutputLimitError } from '../errors/tool-output-limit-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolEvent } from '../invoker/types';
import type { Message } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import { createWorkerPool } from '../pool/worker-pool';
import { createCodeSandbox } from './code-sandbox';
import { codeTool } from './code-tool';

const pool = createWorkerPool({
  worker: () => new Worker(new URL('../../test/workers/agent-tools.worker.ts', import.meta.url), { type: 'module' }),
  size: 2,
});
const sandbox = createCodeSandbox({ timeoutMs: 5_000 });
afterAll(async () => {
  sandbox.close();
  await pool.close();
});

const SCRIPT = `const product = await tools.multiply({ a: 3, b: 12 });
console.log('product', product);
let sum;
try { sum = await tools.add({ a: 11, b: 49 }); } catch (error) { sum = 'blocked: ' + error.message; }
({ product, sum })`;

describe('codeTool: tools as functions inside the sandbox', () => {
  it('one script calls two tools through the invoker (one blocked by an interceptor); the events show them nested', async () => {
    const invoker = new ToolInvoker({
      pool,
      inlineTools: [codeTool(sandbox, { tools: pool })],
      interceptors: [
        (request, next) => {
          if (request.toolCall.name === 'add')
            throw new ToolDeniedError({ toolName: 'add', toolCallId: request.toolCall.id, reason: 'no adding today' });
          return next(request);
        },
      ],
    });
    const spec = (await invoker.specs()).find((s) => s.name === 'run_javascript');
    expect(spec?.description).toContain('`await tools.multiply({ a: number, b: number })`: Multiply two numbers.');
    expect(spec?.inputSchema).toMatchObject({ required: ['code'] });
    expect(spec?.isolated).toBe(false);

    const model = scriptedModel((messages: readonly Message[]) =>
      messages.at(-1)?.role === 'tool'
        ? { text: `The script said: ${messages.at(-1)?.content}` }
        : { toolCalls: [{ id: 'code-1', name: 'run_javascript', args: { code: SCRIPT } }] },
    );
    const events: AgentEvent[] = [];
    for await (const event of createAgent({ model, invoker }).stream('Multiply 3 by 12 and add 11 and 49, in code'))
      events.push(event);
    const finish = events.at(-1);
    expect(finish?.type).toBe('finish');
    expect(finish?.type === 'finish' && finish.text).toBe(
      'The script said: Result: {"product":36,"sum":"blocked: Error: \'add\' (call code-1.2) was not approved: no adding today\\n Please fix your mistakes."}\nConsole:\nproduct 36',
    );
    const nested = events.filter((e) => 'parentToolCallId' in e && e.parentToolCallId === 'code-1');
    expect(nested.map((e) => [e.type, 'toolCallId' in e ? e.toolCallId : ''])).toEqual([
      ['tool-started', 'code-1.1'],
      ['tool-finished', 'code-1.1'],
      ['tool-started', 'code-1.2'],
      ['tool-error', 'code-1.2'],
    ]);
    expect(events).toContainEqual({
      type: 'tool-output-delta',
      toolCallId: 'code-1',
      delta: { level: 'log', text: 'product 36' },
    });
    // The script's result keeps its calls and console (an app drawing the thread again shows them).
    const done = events.find((e) => e.type === 'tool-finished' && e.toolCallId === 'code-1');
    const artifact = done?.type === 'tool-finished' ? done.message.artifact : undefined;
    expect(artifact).toMatchObject({
      value: { product: 36 },
      logs: [{ level: 'log', text: 'product 36' }],
      calls: [
        { toolCallId: 'code-1.1', name: 'multiply', args: { a: 3, b: 12 }, content: '36', ok: true },
        { toolCallId: 'code-1.2', name: 'add', args: { a: 11, b: 49 }, ok: false },
      ],
    });
  });

  it('a tool that needs approval is refused when code calls it; an unknown tool is an error in the script', async () => {
    const invoker = new ToolInvoker({ pool, inlineTools: [codeTool(sandbox, { tools: pool })] });
    const events: AgentEvent[] = [];
    const model = scriptedModel((messages: readonly Message[]) =>
      messages.at(-1)?.role === 'tool'
        ? { text: String(messages.at(-1)?.content) }
        : {
            toolCalls: [
              {
                id: 'c',
                name: 'run_javascript',
                args: {
                  code: `const out = [];
for (const call of [() => tools.delete_note({ key: 'x' }), () => tools.nope({})]) {
  try { out.push(await call()); } catch (e) { out.push(e.message); }
}
out`,
                },
              },
            ],
          },
    );
    for await (const event of createAgent({ model, invoker }).stream('go')) events.push(event);
    const finish = events.at(-1);
    expect(finish?.type === 'finish' && finish.text).toMatch(
      /^Result: \["Error: 'delete_note' \(call c\.1\) was not approved: it needs a person's approval, which only a call of the model itself can ask for[^"]*","tools\.nope is not a function"\]$/,
    );
  });

  it("a script's calls are capped in flight, and those still running when it ends are stopped", async () => {
    const invoker = new ToolInvoker({ pool, inlineTools: [codeTool(sandbox, { tools: pool })] });
    const run = async (code: string) => {
      const events: AgentEvent[] = [];
      const model = scriptedModel((messages: readonly Message[]) =>
        messages.at(-1)?.role === 'tool'
          ? { text: String(messages.at(-1)?.content) }
          : { toolCalls: [{ id: 'k', name: 'run_javascript', args: { code } }] },
      );
      for await (const event of createAgent({ model, invoker }).stream('go')) events.push(event);
      return events;
    };
    const flood =
      await run(`const r = await Promise.allSettled(Array.from({ length: 100 }, () => tools.multiply({ a: 2, b: 3 })));
[r.filter((x) => x.status === 'fulfilled').length, r.find((x) => x.status === 'rejected')?.reason.message]`);
    const text = (flood.at(-1) as { text: string }).text;
    const [done, why] = JSON.parse(text.replace(/^Result: /, '')) as [number, string];
    expect(done).toBeGreaterThanOrEqual(32);
    expect(done).toBeLessThan(100);
    expect(why).toBe('A script may have 32 tool calls running at once');

    const left = await run(`tools.slow({ ms: 5000 }); 'not waiting'`);
    expect((left.at(-1) as { text: string }).text).toBe('Result: "not waiting"');
    const slow = left.filter((e) => 'parentToolCallId' in e && e.parentToolCallId === 'k');
    // Started, then stopped, never finished (a progress delta may come in between): waited for,
    // it would have finished after its 5 s.
    expect(slow.map((e) => e.type).filter((t) => t !== 'tool-output-delta')).toEqual(['tool-started', 'tool-error']);
  });

  it("the script's calls count in the turn of its own call: a loop over a large tool is stopped at maxTurnSize", async () => {
    // Each of the script's calls ran in a turn of its own, with a fresh budget: a 5 s loop over
    // a tool of a few MiB piled up gigabytes on the page, past any maxTurnSize.
    const tight = createWorkerPool({
      worker: () => new Worker(new URL('../../test/workers/tools.worker.ts', import.meta.url), { type: 'module' }),
      size: 1,
      maxTurnSize: 3 * 2 ** 20,
    });
    try {
      const invoker = new ToolInvoker({ pool: tight, inlineTools: [codeTool(sandbox, { tools: ['flood'] })] });
      const code = `let got = 0, error;
try { for (let i = 0; i < 10; i++) { await tools.flood({ resultMiB: 1 }); got++; } } catch (e) { error = e.message; }
({ got, error })`;
      const events: ToolEvent[] = [];
      for await (const event of invoker.stream([{ id: 'loop', name: 'run_javascript', args: { code } }]))
        events.push(event);
      const refused = events.find((e) => e.type === 'tool-error' && e.parentToolCallId === 'loop');
      expect(refused?.type === 'tool-error' && refused.error).toBeInstanceOf(ToolOutputLimitError);
      expect(refused).toMatchObject({ toolCallId: 'loop.3', error: { limit: 'turn', maxSize: 3 * 2 ** 20 } });
      const done = events.at(-1);
      expect(done?.type === 'done' && done.messages[0]?.content).toMatch(
        /^Result: \{"got":2,"error":"Error: Tool 'flood' \(call loop\.3\) sent back too much: the output of this turn's calls together/,
      );
    } finally {
      await tight.close();
    }
  });
});
