import { describe, expect, it } from 'vitest';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { PoolClosedError } from '../errors/pool-closed-error';
import { WorkerStartError } from '../errors/worker-start-error';
import type { ToolDescriptor } from './protocol';
import { type Describer, ToolCatalog } from './tool-catalog';

const spec = (name: string) => ({ name, description: '', inputSchema: { type: 'object' as const, properties: {} } });
const DESCRIPTORS: ToolDescriptor[] = [
  { spec: spec('plain') },
  { spec: spec('whole'), state: { whole: true } },
  { spec: spec('field'), state: { field: 'user' } },
];

/** Workers that answer in turn with what `answers` holds (an error is a rejection). */
function workers(...answers: (ToolDescriptor[] | { error: unknown; stoppedBusy?: boolean })[]) {
  let asked = 0;
  const pick = (): Describer => {
    const answer = answers[Math.min(asked++, answers.length - 1)];
    if (Array.isArray(answer)) return { describe: async () => answer, stoppedBusy: false };
    return { describe: () => Promise.reject(answer?.error), stoppedBusy: answer?.stoppedBusy === true };
  };
  return { pick, asked: () => asked };
}

describe('ToolCatalog', () => {
  it('asks one worker once, however many callers ask', async () => {
    const w = workers(DESCRIPTORS);
    const catalog = new ToolCatalog(w.pick, () => false);
    const [a, b] = await Promise.all([catalog.descriptors(), catalog.descriptors()]);
    expect(a).toBe(b);
    expect(await catalog.descriptors()).toBe(a);
    expect(w.asked()).toBe(1);
  });

  it('asks again after a failure, and after forget()', async () => {
    const w = workers({ error: new Error('gone') }, DESCRIPTORS);
    const catalog = new ToolCatalog(w.pick, () => false);
    await expect(catalog.descriptors()).rejects.toBeInstanceOf(WorkerStartError);
    expect(await catalog.descriptors()).toBe(DESCRIPTORS);
    catalog.forget();
    await catalog.descriptors();
    expect(w.asked()).toBe(3);
  });

  it('asks the replacement once when the worker went down for a call it ran, not for describing', async () => {
    const w = workers({ error: new Error('stopped'), stoppedBusy: true }, DESCRIPTORS);
    expect(await new ToolCatalog(w.pick, () => false).descriptors()).toBe(DESCRIPTORS);
    const twice = workers({ error: new Error('stopped'), stoppedBusy: true });
    await expect(new ToolCatalog(twice.pick, () => false).descriptors()).rejects.toBeInstanceOf(WorkerStartError);
    expect(twice.asked()).toBe(2);
  });

  it("passes the tools' own errors on as they are, without asking again", async () => {
    const own = new InvalidToolSpecError({ toolName: 'x', reason: 'no JSON Schema' });
    const w = workers({ error: own, stoppedBusy: true });
    await expect(new ToolCatalog(w.pick, () => false).descriptors()).rejects.toBe(own);
    expect(w.asked()).toBe(1);
  });

  it('rejects with PoolClosedError once closed, before asking and when the answer fails', async () => {
    let closed = true;
    const w = workers({ error: new Error('terminated') });
    const catalog = new ToolCatalog(w.pick, () => closed);
    await expect(catalog.descriptors()).rejects.toBeInstanceOf(PoolClosedError);
    expect(w.asked()).toBe(0);
    closed = false;
    const answer = catalog.descriptors();
    closed = true;
    await expect(answer).rejects.toBeInstanceOf(PoolClosedError);
  });

  it('sends each tool only the state it declared, once known', async () => {
    const catalog = new ToolCatalog(workers(DESCRIPTORS).pick, () => false);
    const state = { user: 'ada', secret: 's3' };
    expect(catalog.stateFor('field', state)).toBe(state); // not known yet: the worker picks
    await catalog.descriptors();
    expect(catalog.stateFor('plain', state)).toBeUndefined();
    expect(catalog.stateFor('whole', state)).toBe(state);
    expect(catalog.stateFor('field', state)).toEqual({ user: 'ada' });
    expect(catalog.stateFor('field', { secret: 's3' })).toEqual({});
    expect(catalog.stateFor('field', 'not an object')).toEqual({});
    expect(catalog.stateFor('unknown_tool', state)).toBe(state);
    // An inherited field is not the caller's: not sent.
    expect(catalog.stateFor('field', Object.create({ user: 'inherited' }))).toEqual({});
  });
});
