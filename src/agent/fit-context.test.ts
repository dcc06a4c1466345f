import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aiMessage, systemMessage, toolMessage, userMessage } from '../messages/constructors';
import type { Message } from '../messages/types';
import { estimateTokens, fitContext } from './fit-context';

let ids = 0;
/** One exchange: a user message, then `steps` model turns of `calls` calls each, then an answer. */
function exchange(steps: number, calls: number, size: number): Message[] {
  const out: Message[] = [userMessage('u'.repeat(size))];
  for (let s = 0; s < steps; s++) {
    const toolCalls = Array.from({ length: calls }, () => ({ id: `c${++ids}`, name: 'add', args: { a: 1 } }));
    out.push(aiMessage({ content: 'a'.repeat(size), toolCalls }));
    for (const call of toolCalls)
      out.push(toolMessage({ toolCallId: call.id, name: 'add', content: 'r'.repeat(size), status: 'success' }));
  }
  out.push(aiMessage('x'.repeat(size)));
  return out;
}

/** The problems a provider would refuse the request for, in words. */
function problems(messages: readonly Message[]): string[] {
  const out: string[] = [];
  const open = new Set<string>();
  let seenOther = false;
  for (const [i, m] of messages.entries()) {
    if (m.role === 'system') continue;
    if (!seenOther && m.role !== 'user') out.push(`message ${i} opens the request as ${m.role}`);
    seenOther = true;
    if (m.role === 'assistant') {
      if (open.size > 0) out.push(`calls ${[...open]} have no result`);
      open.clear();
      for (const c of m.toolCalls) open.add(c.id);
    } else if (m.role === 'tool') {
      if (!open.delete(m.toolCallId)) out.push(`result ${m.toolCallId} has no call`);
    } else if (open.size > 0) out.push(`calls ${[...open]} have no result`);
  }
  if (open.size > 0) out.push(`calls ${[...open]} have no result`);
  return out;
}

describe('fitContext', () => {
  it('sends everything when it fits, as it is', () => {
    const thread = [systemMessage('be brief'), ...exchange(2, 2, 10), ...exchange(0, 0, 10)];
    const fitted = fitContext(thread, { window: 100_000, reserve: 1_000 });
    expect(fitted.messages).toEqual(thread);
    expect(fitted.ranges).toEqual([[0, thread.length]]);
    expect(fitted.dropped).toBe(0);
  });

  it('drops the oldest whole exchanges, keeping the system messages and the latest user message', () => {
    const old = exchange(1, 1, 400);
    const recent = exchange(1, 1, 400);
    const last = [userMessage('now?')];
    const thread = [systemMessage('rules'), ...old, ...recent, ...last];
    const perExchange = old.reduce((n, m) => n + estimateTokens(m), 0);
    const fitted = fitContext(thread, { window: perExchange * 1.5 + 100, reserve: 50 });
    expect(fitted.messages).toEqual([thread[0], ...recent, ...last]);
    expect(fitted.ranges).toEqual([
      [0, 1],
      [1 + old.length, thread.length],
    ]);
    expect(fitted.dropped).toBe(old.length);
  });

  it('inside a long run, drops its oldest steps whole and keeps the user message that started it', () => {
    const run = exchange(6, 2, 200).slice(0, -1); // the run goes on: no answer yet
    const fitted = fitContext(run, { window: 1_000, reserve: 100 });
    expect(fitted.messages[0]).toBe(run[0]);
    expect(problems(fitted.messages)).toEqual([]);
    // Each step is an answer and two results: what is kept after the user message is whole steps.
    expect((fitted.messages.length - 1) % 3).toBe(0);
    expect(fitted.messages.at(-1)).toBe(run.at(-1));
    expect(fitted.tokens).toBeLessThanOrEqual(900);
  });

  it('keeps the newest step even when it alone is larger than the window', () => {
    const run = exchange(2, 1, 10_000).slice(0, -1);
    const fitted = fitContext(run, { window: 1_000, reserve: 100 });
    expect(fitted.messages).toEqual([run[0], ...run.slice(-2)]);
  });

  it('counts the system prompt, the tools and the calibration', () => {
    const thread = [...exchange(0, 0, 800), ...exchange(0, 0, 800), userMessage('q')];
    const tools = [{ name: 'add', description: 'd'.repeat(800), inputSchema: { type: 'object' } }];
    expect(fitContext(thread, { window: 1_000, reserve: 0 }).dropped).toBe(0);
    expect(fitContext(thread, { window: 1_000, reserve: 0, tools }).dropped).toBe(2);
    expect(fitContext(thread, { window: 1_000, reserve: 0, system: 's'.repeat(800) }).dropped).toBe(2);
    expect(fitContext(thread, { window: 1_000, reserve: 0, calibration: 3 }).dropped).toBe(4);
  });

  it('never sends a result without its call, a call without its result, or opens with the model', () => {
    const arbThread = fc
      .array(fc.record({ steps: fc.nat(4), calls: fc.nat(3), size: fc.integer({ min: 1, max: 300 }) }), {
        minLength: 1,
        maxLength: 12,
      })
      .chain((exchanges) =>
        fc.record({
          exchanges: fc.constant(exchanges),
          open: fc.boolean(),
          window: fc.integer({ min: 50, max: 6_000 }),
        }),
      );
    fc.assert(
      fc.property(arbThread, ({ exchanges, open, window }) => {
        let thread = exchanges.flatMap((e) => exchange(e.steps, e.calls, e.size));
        // A run still going: the last exchange has no answer yet.
        if (open) thread = thread.slice(0, -1);
        const fitted = fitContext(thread, { window, reserve: 20 });
        expect(problems(fitted.messages)).toEqual([]);
        expect(fitted.messages).toEqual(fitted.ranges.flatMap(([a, b]) => thread.slice(a, b)));
        const lastUser = thread.findLastIndex((m) => m.role === 'user');
        expect(fitted.messages).toContain(thread[lastUser]);
        expect(fitted.messages.at(-1)).toBe(thread.at(-1));
      }),
    );
  });
});
