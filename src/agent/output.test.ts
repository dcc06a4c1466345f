// Structured output through the agent loop in Node: a scripted model, an inline tool. (The
// browser tests drive the five real clients against the wire-protocol server.)
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { isPrefixOf } from '../../test/prefix';
import { defineTool } from '../../worker/define-tool';
import { OutputValidationError } from '../errors/output-validation-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import { type ScriptedTurn, scriptedModel } from '../models/scripted-model';
import type { ModelRequest } from '../models/types';
import type { StandardSchema } from '../output/output-schema';
import type { OutputFormat } from '../providers/output-format';
import { createAgent } from './agent';
import type { AgentEvent, AgentOutputResult, AgentResult, DeepPartial } from './types';

const Person = z.object({ name: z.string(), born: z.number().int(), works: z.array(z.string()) });
const ada = { name: 'Ada Lovelace', born: 1815, works: ['Notes on the Analytical Engine', 'Sketch'] };

const lookup = defineTool({
  name: 'lookup',
  description: 'Look a person up.',
  input: zm.object({ q: zm.string() }),
  run: ({ q }) => `${q}: born 1815`,
});

/** A model that plays `turns` in order and keeps what each request asked of the output. */
function scripted(turns: ScriptedTurn[]) {
  const asked: (OutputFormat | undefined)[] = [];
  const model = scriptedModel((_messages, request: ModelRequest) => {
    asked.push(request.output);
    return turns[asked.length - 1] ?? { text: 'no more turns' };
  });
  return { model, asked };
}

const agentOver = (turns: ScriptedTurn[]) => {
  const { model, asked } = scripted(turns);
  return { agent: createAgent({ model, invoker: new ToolInvoker({ inlineTools: [lookup] }) }), asked };
};

describe('structured output through the agent', () => {
  it('run resolves with the checked output; every request carries the schema', async () => {
    const { agent, asked } = agentOver([{ text: JSON.stringify(ada) }]);
    const result = await agent.run('Who wrote the first program?', { output: Person });
    expect(result).toMatchObject({ stopReason: 'end', output: ada, text: JSON.stringify(ada), steps: 1 });
    expect(asked).toEqual([
      {
        name: 'output',
        schema: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            born: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
            works: { type: 'array', items: { type: 'string' } },
          },
          required: ['name', 'born', 'works'],
          additionalProperties: false,
        },
      },
    ]);
  });

  it('tools first, then the answer: output-delta events only for the answer, each a prefix of the final', async () => {
    const { agent, asked } = agentOver([
      { toolCalls: [{ name: 'lookup', args: { q: 'Ada' } }] },
      { text: JSON.stringify(ada, null, 1) },
    ]);
    const partials: unknown[] = [];
    const types: string[] = [];
    let finish: Extract<AgentEvent, { type: 'finish' }> | undefined;
    for await (const event of agent.stream('Who?', { output: Person })) {
      types.push(event.type);
      // Live objects: a copy keeps what each event showed.
      if (event.type === 'output-delta') partials.push(structuredClone(event.partial));
      if (event.type === 'finish') finish = event;
    }
    expect(finish).toMatchObject({ stopReason: 'end', steps: 2, output: ada });
    expect(asked).toHaveLength(2);
    expect(asked[0]).toEqual(asked[1]);
    expect(types.indexOf('output-delta')).toBeGreaterThan(types.indexOf('tool-finished'));
    expect(partials.length).toBeGreaterThan(10);
    for (const [i, partial] of partials.entries()) {
      expect(isPrefixOf(partial, ada)).toBe(true);
      if (i > 0) expect(isPrefixOf(partials[i - 1], partial)).toBe(true);
    }
    expect(partials.at(-1)).toEqual(ada);
  });

  it("an answer that does not fit is an OutputValidationError with zod's issues; the thread keeps it", async () => {
    const wrong = JSON.stringify({ name: 'Ada', born: '1815' });
    const { agent } = agentOver([{ text: wrong }]);
    const events: AgentEvent[] = [];
    for await (const event of agent.stream('Who?', { output: Person, threadId: 'wrong' })) events.push(event);
    const last = events.at(-1);
    if (last?.type !== 'error') throw new Error(`the run ended with ${last?.type}`);
    const error = last.error as OutputValidationError;
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error.text).toBe(wrong);
    expect(error.issues.map((i) => [i.path, i.code])).toEqual([
      [['born'], 'invalid_type'],
      [['works'], 'invalid_type'],
    ]);
    expect((await agent.thread('wrong'))?.messages.at(-1)).toMatchObject({ role: 'assistant', content: wrong });
  });

  it('an answer that is not JSON at all is an OutputValidationError too', async () => {
    const { agent } = agentOver([{ text: 'Ada Lovelace, born 1815.' }]);
    await expect(agent.run('Who?', { output: Person })).rejects.toMatchObject({
      name: 'OutputValidationError',
      issues: [
        { path: [], code: 'invalid_json', message: expect.stringMatching(/not JSON: Unexpected character "A"/) },
      ],
    });
  });

  it('a plain JSON Schema works the same, checked by our own checker', async () => {
    const schema = {
      type: 'object',
      properties: { name: { type: 'string' }, born: { type: 'integer', minimum: 1800 } },
      required: ['name', 'born'],
    };
    const good = agentOver([{ text: '{"name": "Ada", "born": 1815}' }]);
    expect((await good.agent.run('Who?', { output: schema })).output).toEqual({ name: 'Ada', born: 1815 });
    expect(good.asked[0]?.schema).toEqual(schema);
    const bad = agentOver([{ text: '{"name": "Ada", "born": 1700}' }]);
    await expect(bad.agent.run('Who?', { output: schema })).rejects.toMatchObject({
      issues: [{ path: ['born'], message: 'too small: expected at least 1800' }],
    });
  });

  it("the agent's default output, and a run's own in its place", async () => {
    const City = z.object({ city: z.string() });
    const { model, asked } = scripted([{ text: JSON.stringify(ada) }, { text: '{"city": "London"}' }]);
    const agent = createAgent({ model, output: Person });
    expect((await agent.run('Who?')).output).toEqual(ada);
    expect((await agent.run('Where?', { output: City })).output).toEqual({ city: 'London' });
    expect(asked.map((f) => Object.keys((f?.schema.properties as object) ?? {}))).toEqual([
      ['name', 'born', 'works'],
      ['city'],
    ]);
  });

  it('a run that stops before its answer carries no output', async () => {
    const { model } = scripted([{ toolCalls: [{ name: 'lookup', args: { q: 'Ada' } }] }]);
    const agent = createAgent({ model, invoker: new ToolInvoker({ inlineTools: [lookup] }), maxSteps: 1 });
    const result = await agent.run('Who?', { output: Person });
    expect(result.stopReason).toBe('max-steps');
    expect('output' in result).toBe(false);
  });

  it('refuses what cannot be an output schema, before any request', async () => {
    const { model, asked } = scripted([{ text: '{}' }]);
    expect(() => createAgent({ model, output: 'Person' as never })).toThrow(
      /Expected `output` to be a zod schema, another Standard Schema or a JSON Schema object, got `'Person'`/,
    );
    const agent = createAgent({ model });
    await expect(agent.run('x', { output: 42 as never })).rejects.toThrow(TypeError);
    await expect(agent.run('x', { output: { type: 'array', items: {} } })).rejects.toThrow(/must describe an object/);
    expect(asked).toEqual([]);
  });

  it('types: output inferred from a zod schema, unknown from JSON Schema, the default typed too', () => {
    const { model } = scripted([]);
    // Checked by the compiler (tsc --noEmit); never called, so no run starts.
    const checks = async () => {
      const agent = createAgent({ model });
      expectTypeOf(await agent.run('x', { output: Person })).toEqualTypeOf<
        AgentOutputResult<{ name: string; born: number; works: string[] }>
      >();
      expectTypeOf(await agent.run('x', { output: { type: 'object' } })).toEqualTypeOf<AgentOutputResult<unknown>>();
      expectTypeOf(await agent.run('x')).toEqualTypeOf<AgentResult>();
      const typed = createAgent({ model, output: Person });
      expectTypeOf(await typed.run('x')).toEqualTypeOf<AgentOutputResult<z.infer<typeof Person>>>();
      expectTypeOf(await typed.run('x', { output: zm.object({ n: zm.number() }) })).toEqualTypeOf<
        AgentOutputResult<{ n: number }>
      >();
      for await (const event of agent.stream('x', { output: Person })) {
        if (event.type === 'output-delta')
          expectTypeOf(event.partial).toEqualTypeOf<DeepPartial<z.infer<typeof Person>>>();
        if (event.type === 'finish') expectTypeOf(event.output).toEqualTypeOf<z.infer<typeof Person> | undefined>();
      }
      // A Standard Schema that declares no types: what its validate returns.
      const verdict = {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: (value: unknown) =>
            typeof value === 'object' ? { value: value as { guilty: boolean } } : { issues: [{ message: 'no' }] },
          jsonSchema: { output: () => ({ type: 'object' }) },
        },
      } satisfies StandardSchema<{ guilty: boolean }>;
      expectTypeOf((await agent.run('x', { output: verdict })).output).toEqualTypeOf<{ guilty: boolean } | undefined>();
      // `output` is there whenever the run ended with an answer.
      const r = await typed.run('x');
      expectTypeOf(r.output).toEqualTypeOf<z.infer<typeof Person> | undefined>();
      if (r.stopReason === 'end' || r.stopReason === 'length')
        expectTypeOf(r.output).toEqualTypeOf<z.infer<typeof Person>>();
      if (r.stopReason === 'approval') expectTypeOf(r.output).toEqualTypeOf<undefined>();
    };
    expectTypeOf(checks).toBeFunction();
  });
});
