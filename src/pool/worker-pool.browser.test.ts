import { afterEach, describe, expect, it } from 'vitest';
import { call, testPool, watchRuns } from '../../test/pool-helpers';
import { MoatError } from '../errors/moat-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { ToolInputValidationError } from '../errors/tool-input-validation-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { resultValue } from './pool-options';
import type { WorkerPool } from './worker-pool';

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('worker pool basics', () => {
  it('discovers the specs from the worker', async () => {
    pool = testPool();
    const specs = await pool.specs();
    expect(specs.map((s) => s.name)).toContain('add');
    expect(specs.find((s) => s.name === 'add')).toEqual({
      name: 'add',
      description: 'Add two numbers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
    });
  });

  it('runs a call and converts the result in the worker', async () => {
    pool = testPool();
    const result = await pool.call(call('add', { a: 3, b: 12 }));
    expect(result).toMatchObject({ name: 'add', content: '15', kind: 'json' });
    expect(resultValue(result)).toBe(15);
    const echo = await pool.call({ id: 'e1', name: 'echo', args: { text: 'hi', n: [1, 2] } });
    expect(resultValue(echo)).toEqual({ text: 'hi', n: [1, 2] });
  });

  it('rejects unknown tools and bad arguments with typed errors', async () => {
    pool = testPool();
    const unknown = pool.call({ id: 'x1', name: 'toString', args: {} });
    await expect(unknown).rejects.toBeInstanceOf(ToolNotFoundError);
    await expect(unknown).rejects.toThrow(/Model called unknown tool 'toString'. Available tools: echo, add/);
    const bad = pool.call({ id: 'x2', name: 'add', args: { a: 'three' } });
    await expect(bad).rejects.toBeInstanceOf(ToolInputValidationError);
    const error = (await bad.catch((e) => e)) as ToolInputValidationError;
    expect(error.toolName).toBe('add');
    expect(error.toolCallId).toBe('x2');
    expect(error.issues.map((i) => i.path)).toEqual([['a'], ['b']]);
  });

  it('keeps class, name, message, tool name, call id and cause across the boundary', async () => {
    pool = testPool();
    const error = (await pool
      .call({ id: 'f1', name: 'fail', args: { message: 'no such city' } })
      .catch((e) => e)) as ToolExecutionError;
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(MoatError.isInstance(error)).toBe(true);
    expect(error.name).toBe('ToolExecutionError');
    expect(error.message).toBe("Tool 'fail' (call f1) failed: no such city");
    expect(error.toolName).toBe('fail');
    expect(error.toolCallId).toBe('f1');
    expect(error.cause).toBeInstanceOf(RangeError);
    expect((error.cause as Error).message).toBe('no such city');
    expect(((error.cause as Error).cause as Error).message).toBe('the root cause');
  });

  it('records that each call ran once', async () => {
    pool = testPool();
    const watch = await watchRuns();
    await Promise.all([
      pool.call({ id: 'r1', name: 'echo', args: { text: 'a' } }),
      pool.call({ id: 'r2', name: 'echo', args: { text: 'b' } }),
    ]);
    await watch.arrived(['r1', 'r2']);
    watch.stop();
    expect(watch.runs.sort()).toEqual(['r1', 'r2']);
  });
});
