// Structured output through the agent in Chromium: every model client against the wire-protocol
// server (which checks each provider's schema field as the provider does), tools in workers.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { z } from 'zod';
import { modelClients } from '../../test/model-clients';
import { addScenario, requestsOf, type Scenario } from '../../test/model-server/scenarios';
import { isPrefixOf } from '../../test/prefix';
import { OutputValidationError } from '../errors/output-validation-error';
import { createWorkerPool, type WorkerPool } from '../pool/worker-pool';
import { createAgent } from './agent';
import type { AgentEvent } from './types';

const url = inject('modelServerUrl');
const KEY = 'browser-key-42';

const clients = modelClients(url, KEY);

/** Where each provider's request carries the output schema. */
const schemaIn: Record<string, (body: Record<string, unknown>) => unknown> = {
  'openai-chat': (body) => (body.response_format as { json_schema?: { schema?: unknown } })?.json_schema?.schema,
  'openai-responses': (body) => (body.text as { format?: { schema?: unknown } })?.format?.schema,
  anthropic: (body) => (body.output_config as { format?: { schema?: unknown } })?.format?.schema,
  gemini: (body) => (body.generationConfig as { responseJsonSchema?: unknown })?.responseJsonSchema,
  ollama: (body) => body.format,
};

const Book = z.object({
  title: z.string(),
  author: z.object({ name: z.string(), born: z.number().int() }),
  pages: z.number().int().positive(),
  themes: z.array(z.string()),
});
const book = {
  title: 'Sketch of the Analytical Engine',
  author: { name: 'Ada Lovelace', born: 1815 },
  pages: 66,
  themes: ['Bernoulli numbers', 'loops', 'the engine weaves algebraic patterns'],
};

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const events: T[] = [];
  for await (const e of iterable) {
    // Partial objects are live: a copy keeps each moment.
    if ((e as { type?: string }).type === 'output-delta') events.push(structuredClone(e));
    else events.push(e);
  }
  return events;
}

describe.each(Object.keys(clients))('structured output over %s', (name) => {
  const make = clients[name] as (typeof clients)[string];
  let pool: WorkerPool;
  beforeAll(() => {
    pool = createWorkerPool({
      worker: () =>
        new Worker(new URL('../../test/workers/agent-tools.worker.ts', import.meta.url), { type: 'module' }),
      size: 1,
      network: 'deny',
    });
  });
  afterAll(() => pool.close());
  const scenario = (init: Omit<Scenario, 'id'>) =>
    addScenario(
      url,
      name === 'ollama' ? { delayMs: 1, ...init } : { apiKey: KEY, delayMs: 1, ...init },
      `output-${name}`,
    );

  it('answers with the object; partials stream, each a prefix of the next and of the final', async () => {
    const id = await scenario({ turns: [{ text: JSON.stringify(book, null, 2) }] });
    const events = await collect(createAgent({ model: make(id), pool }).stream('Which book?', { output: Book }));
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', stopReason: 'end', steps: 1, output: book });
    const partials = events.flatMap((e) => (e.type === 'output-delta' ? [e.partial] : []));
    expect(partials.length).toBeGreaterThan(3);
    for (const [i, partial] of partials.entries()) {
      expect(isPrefixOf(partial, book), JSON.stringify(partial)).toBe(true);
      if (i > 0) expect(isPrefixOf(partials[i - 1], partial)).toBe(true);
    }
    expect(partials.at(-1)).toEqual(book);
    const [request] = await requestsOf(url, id);
    expect(request?.answer).toBe('stream');
    const sent = schemaIn[name]?.(request?.body ?? {}) as { properties?: Record<string, unknown> };
    expect(Object.keys(sent?.properties ?? {})).toEqual(['title', 'author', 'pages', 'themes']);
  });

  it('calls a tool first, then answers with the object; both requests carry the schema', async () => {
    const id = await scenario({
      turns: [
        { toolCalls: [{ name: 'multiply', args: { a: 6, b: 11 } }] },
        // The page count is what the tool said.
        { text: JSON.stringify({ ...book, pages: 0 }).replace('"pages":0', '"pages":{{results}}') },
      ],
    });
    const events = await collect(createAgent({ model: make(id), pool }).stream('How many pages?', { output: Book }));
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'end', steps: 2, output: book });
    const types = events.map((e) => e.type);
    expect(types).toContain('tool-finished');
    expect(types.indexOf('output-delta')).toBeGreaterThan(types.indexOf('tool-finished'));
    const requests = await requestsOf(url, id);
    expect(requests.map((r) => r.answer)).toEqual(['stream', 'stream']);
    for (const r of requests) expect(schemaIn[name]?.(r.body)).toMatchObject({ type: 'object' });
  });

  it('an answer that does not fit is an OutputValidationError with the issues', async () => {
    const wrong = { ...book, author: { name: 'Ada Lovelace', born: '1815' }, pages: -1 };
    const id = await scenario({ turns: [{ text: JSON.stringify(wrong) }] });
    const agent = createAgent({ model: make(id), pool });
    const events: AgentEvent[] = await collect(agent.stream('Which book?', { output: Book, threadId: 't' }));
    const last = events.at(-1);
    if (last?.type !== 'error') throw new Error(`the run ended with ${last?.type}`);
    expect(last.error).toBeInstanceOf(OutputValidationError);
    expect((last.error as OutputValidationError).issues.map((i) => i.path.join('.'))).toEqual(['author.born', 'pages']);
    expect((last.error as OutputValidationError).text).toBe(JSON.stringify(wrong));
    expect((await agent.thread('t'))?.messages.at(-1)).toMatchObject({ role: 'assistant' });
  });
});
