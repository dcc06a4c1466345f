import { describe, expect, it, vi } from 'vitest';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { PoolClosedError } from '../errors/pool-closed-error';
import { WorkerStartError } from '../errors/worker-start-error';
import { checkGrants } from './pool-options';
import type { ToolDescriptor } from './protocol';
import { type Describer, readDescriptors, ToolCatalog } from './tool-catalog';

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
    expect(await catalog.descriptors()).toEqual(DESCRIPTORS);
    catalog.forget();
    await catalog.descriptors();
    expect(w.asked()).toBe(3);
  });

  it('asks the replacement once when the worker went down for a call it ran, not for describing', async () => {
    const w = workers({ error: new Error('stopped'), stoppedBusy: true }, DESCRIPTORS);
    expect(await new ToolCatalog(w.pick, () => false).descriptors()).toEqual(DESCRIPTORS);
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

describe("a worker's description, read as untrusted", () => {
  it('keeps only the fields the protocol names, each of its type, in fresh objects', () => {
    const answer = [
      {
        spec: { ...spec('a'), needsApproval: true, isolated: false, readOnly: 'yes', extra: 1 },
        state: { field: 'user', also: 2 },
        store: { namespaces: [['notes']] },
        idempotent: true,
        more: 'ignored',
      },
    ];
    const [read] = readDescriptors(answer);
    expect(read).toEqual({
      spec: { ...spec('a'), needsApproval: true },
      state: { field: 'user' },
      store: { namespaces: [['notes']] },
      idempotent: true,
    });
    expect(read?.spec).not.toBe(answer[0]?.spec);
    // isolated: false would have passed a worker tool off as one of the page's own.
    expect(read?.spec).not.toHaveProperty('isolated');
  });

  it.each<[string, unknown, RegExp]>([
    ['not a list', { length: 1 }, /expected a list, got/],
    ['a tool that is not an object', [null], /tool 0 is `null`/],
    ['a name twice', [{ spec: spec('a') }, { spec: spec('a') }], /two tools are named 'a'/],
    ['a bad state', [{ spec: spec('a'), state: { field: 3 } }], /'a' declares its state as/],
    ['a bad store', [{ spec: spec('a'), store: { namespaces: 'notes' } }], /'a' declares its store as/],
    ['an empty namespace', [{ spec: spec('a'), store: { namespaces: [[]] } }], /store namespaces that are not/],
    ['too many tools', Array.from({ length: 1_001 }, (_, i) => ({ spec: spec(`t${i}`) })), /1001 tools, more than/],
  ])('refuses %s, saying what', (_, answer, why) => {
    expect(() => readDescriptors(answer)).toThrow(why);
  });

  it("refuses a spec the providers would, with the spec's own error", () => {
    expect(() => readDescriptors([{ spec: { name: 'has space', description: '', inputSchema: {} } }])).toThrow(
      InvalidToolSpecError,
    );
  });

  it('a malformed description fails specs() with WorkerStartError, and is asked again next time', async () => {
    const w = workers([{ spec: 7 }] as never, DESCRIPTORS);
    const catalog = new ToolCatalog(w.pick, () => false);
    await expect(catalog.descriptors()).rejects.toThrow(InvalidToolSpecError);
    expect(await catalog.descriptors()).toEqual(DESCRIPTORS);
    const garbled = new ToolCatalog(workers({ not: 'a list' } as never).pick, () => false);
    await expect(garbled.descriptors()).rejects.toBeInstanceOf(WorkerStartError);
  });
});

describe("the page's grants", () => {
  const notes = { spec: spec('notes'), store: { namespaces: [['notes']] } };
  const drop = { spec: { ...spec('drop'), needsApproval: true } };

  it('decide approvals with the tool: the module can add one, never take one away', async () => {
    const grants = checkGrants({ plain: { needsApproval: true }, drop: { needsApproval: false } });
    const catalog = new ToolCatalog(workers([{ spec: spec('plain') }, drop]).pick, () => false, grants);
    const specs = (await catalog.descriptors()).map((d) => [d.spec.name, d.spec.needsApproval]);
    expect(specs).toEqual([
      ['plain', true],
      ['drop', true],
    ]);
  });

  it('decide what the store serves the module: what was granted, all together; nothing when nothing was', async () => {
    const granted = (g: unknown) =>
      new ToolCatalog(workers([notes, drop]).pick, () => false, checkGrants(g)).storeNamespaces();
    expect(await granted({ notes: { store: [['notes']] }, drop: { store: [['trash', 'mine']] } })).toEqual([
      ['notes'],
      ['trash', 'mine'],
    ]);
    // What a tool declares (notes: [['notes']]) grants nothing by itself.
    expect(await granted(undefined)).toEqual([]);
    expect(await granted({ drop: { needsApproval: true } })).toEqual([]);
    expect(await granted({ notes: { store: 'all' } })).toBeUndefined(); // the whole database
  });

  it('a grant for a tool the module does not serve fails specs() with a TypeError naming it', async () => {
    const catalog = new ToolCatalog(workers([notes]).pick, () => false, checkGrants({ note: { needsApproval: true } }));
    await expect(catalog.descriptors()).rejects.toThrow(
      "createWorkerPool's `grants` name 'note', which the tools module does not serve (it serves 'notes')",
    );
  });

  it('warns of namespaces a tool declares that the page did not grant, naming the grant to add', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      await new ToolCatalog(workers([notes]).pick, () => false, checkGrants({})).descriptors();
      expect(warn).toHaveBeenCalledWith(expect.stringContaining('grants: { notes: { store: [["notes"]] } }'));
      warn.mockClear();
      const grants = checkGrants({ notes: { store: [['notes']] } });
      await new ToolCatalog(workers([notes]).pick, () => false, grants).descriptors();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it.each<[unknown, RegExp]>([
    ['notes', /`grants` to be an object of tool names/],
    [{ a: true }, /`grants.a` to be an object/],
    [{ a: { needsApproval: 'yes' } }, /`grants.a.needsApproval` to be a boolean/],
    [{ a: { store: 'notes' } }, /`grants.a.store` to be a list of namespaces \(such as \[\['notes'\]\]\) or 'all'/],
    [{ a: { store: [[]] } }, /`grants.a.store` to hold namespaces: .*at least one label/],
  ])('checks its grants option: %j', (grants, why) => {
    expect(() => checkGrants(grants)).toThrow(why);
  });
});
