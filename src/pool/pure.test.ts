import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { convertResult, withArtifact, withUpdate } from '../../worker/results';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { ToolOutputLimitError } from '../errors/tool-output-limit-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { WorkerCrashedError } from '../errors/worker-crashed-error';
import { WorkerStartError } from '../errors/worker-start-error';
import { workerContentSecurityPolicy } from '../frame/worker-csp';
import { CallClock } from './call-clock';
import { type CallSpend, charge, OUTPUT_LIMITS, type OutputLimits, overLimit } from './output-budget';
import { type HeldCall, judgeStoppedCalls, type StoppedWorker } from './pool-call';
import { StartedCalls } from './started-calls';

describe('CallClock', () => {
  type FakeCall = { id: string; timer: ReturnType<typeof setTimeout> | undefined };

  afterEach(() => {
    vi.useRealTimers();
  });

  it('stops the worker of a cancelled call that outlives its grace, unless it answered or its worker went first', () => {
    vi.useFakeTimers();
    const ignored: [string, string][] = [];
    const timedOut: string[] = [];
    const clock = new CallClock<FakeCall, string>(
      100,
      (call) => timedOut.push(call.id),
      (worker, culprit) => ignored.push([worker, culprit.toolCallId]),
    );
    const culprit = (toolCallId: string) => ({ toolCallId, toolName: 'spin' });
    clock.abandon(1, 'w1', culprit('late'));
    clock.abandon(2, 'w1', culprit('answered'));
    clock.abandon(3, 'w2', culprit('forgotten'));
    clock.answered(2);
    clock.forget('w2');
    vi.advanceTimersByTime(99);
    expect(ignored).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ignored).toEqual([['w1', 'late']]);
    clock.abandon(4, 'w3', culprit('closed'));
    clock.forget(); // every worker
    vi.advanceTimersByTime(1_000);
    expect(ignored).toHaveLength(1);
  });

  it('times out a call when its own timer runs out, never one with no limit or whose timer was cleared', () => {
    vi.useFakeTimers();
    const timedOut: string[] = [];
    const clock = new CallClock<FakeCall, string>(
      100,
      (call) => timedOut.push(call.id),
      () => {},
    );
    const [late, endless, settled]: FakeCall[] = ['late', 'endless', 'settled'].map((id) => ({ id, timer: undefined }));
    for (const call of [late, settled]) if (call) call.timer = clock.due(call, 50);
    if (endless) endless.timer = clock.due(endless, Number.POSITIVE_INFINITY);
    expect(endless?.timer).toBeUndefined();
    clearTimeout(settled?.timer); // as a PoolCall does when it settles
    vi.advanceTimersByTime(49);
    expect(timedOut).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(timedOut).toEqual(['late']);
  });
});

describe('convertResult (in the worker)', () => {
  it('keeps strings, writes other values as JSON', () => {
    expect(convertResult('hi')).toEqual({ ok: true, result: { content: 'hi', kind: 'text' } });
    expect(convertResult({ a: [1, null] })).toEqual({ ok: true, result: { content: '{"a":[1,null]}', kind: 'json' } });
    expect(convertResult(42)).toEqual({ ok: true, result: { content: '42', kind: 'json' } });
    expect(convertResult(undefined)).toEqual({ ok: true, result: { content: '', kind: 'text' } });
    expect(convertResult('hi', 'json')).toEqual({ ok: true, result: { content: '"hi"', kind: 'json' } });
    expect(convertResult(undefined, 'json')).toEqual({ ok: true, result: { content: 'null', kind: 'json' } });
  });

  it('refuses a result nested too deeply to send, without overflowing the stack', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(convertResult(deep)).toEqual({ ok: false, reason: 'the result is nested deeper than 1000 levels' });
  });

  it('refuses what JSON cannot hold, with its path', () => {
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(convertResult({ a: { f: () => 1 } })).toEqual({ ok: false, reason: 'result.a.f is a function' });
    expect(convertResult([1, 2n])).toEqual({ ok: false, reason: 'result.1 is a bigint' });
    expect(convertResult({ when: new Date(0) })).toEqual({ ok: false, reason: 'result.when is a Date' });
    expect(convertResult(loop)).toEqual({ ok: false, reason: 'result.self is a circular reference' });
    expect(convertResult(Number.NaN)).toEqual({ ok: false, reason: 'the result is a non-finite number (NaN)' });
    expect(convertResult([undefined])).toEqual({ ok: false, reason: 'result.0 is undefined' });
  });

  it('reads artifacts and state updates', () => {
    expect(convertResult(withArtifact('2 rows', [1, 2]))).toEqual({
      ok: true,
      result: { content: '2 rows', kind: 'text', artifact: [1, 2] },
    });
    expect(convertResult({ content: 'plain', artifact: { x: 1 } })).toEqual({
      ok: true,
      result: { content: 'plain', kind: 'text', artifact: { x: 1 } },
    });
    expect(convertResult({ content: 'not an artifact shape', artifact: 1, more: 2 })).toMatchObject({
      ok: true,
      result: { kind: 'json' },
    });
    expect(convertResult(withUpdate({ ok: true }, { n: 1 }))).toEqual({
      ok: true,
      result: { content: '{"ok":true}', kind: 'json', update: { n: 1 } },
    });
    expect(convertResult(withUpdate(undefined, { f: () => 1 }))).toEqual({
      ok: false,
      reason: 'the state update at result.update.f is a function',
    });
  });

  it('reads a parts result: the text parts as the text, images and files beside it as base64', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const b64 = Buffer.from(png).toString('base64');
    expect(
      convertResult({
        content: [
          { type: 'text', text: 'Sales' },
          { type: 'image', data: png }, // bytes: the type told by them
          { type: 'text', text: 'by month' },
          { type: 'image', data: `data:image/png;base64,${b64}` },
          { type: 'file', data: png.buffer, mediaType: 'Application/PDF', filename: 'r.pdf' },
        ],
        artifact: { rows: 2 },
      }),
    ).toEqual({
      ok: true,
      result: {
        content: 'Sales\nby month',
        kind: 'text',
        media: [
          { type: 'image', data: b64, mediaType: 'image/png' },
          { type: 'image', data: b64, mediaType: 'image/png' },
          { type: 'file', data: b64, mediaType: 'application/pdf', filename: 'r.pdf' },
        ],
        artifact: { rows: 2 },
      },
    });
  });

  it('refuses a part it cannot read, naming it; a list of other things stays data', () => {
    // A URL: the page and the provider would fetch it, past the tool's network policy.
    expect(
      convertResult({
        content: [
          { type: 'text', text: 'x' },
          { type: 'image', data: 'https://evil.example/?d=1' },
        ],
      }),
    ).toEqual({
      ok: false,
      reason: 'result.content.1 is a URL: return the image or file itself (its bytes or base64)',
    });
    expect(convertResult({ content: [{ type: 'image', data: new Uint8Array([1, 2, 3]) }] })).toEqual({
      ok: false,
      reason: expect.stringMatching(/^result\.content\.0: Cannot tell the media type of the image/),
    });
    expect(convertResult({ content: [{ type: 'image', data: 'not base64!' }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^result\.content\.0: Expected the image's data to be base64 or a URL/),
    });
    // Where no FileReaderSync is (the page's inline tools), a Blob is refused with what to do.
    expect(convertResult({ content: [{ type: 'image', data: new Blob(['x']) }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/a Blob is read only in a worker: return its bytes/),
    });
    expect(convertResult({ content: [1, 2] })).toEqual({
      ok: true,
      result: { content: '{"content":[1,2]}', kind: 'json' },
    });
    expect(convertResult({ content: [{ type: 'video' }] })).toMatchObject({ ok: true, result: { kind: 'json' } });
  });
});

describe('defineTool (in the worker)', () => {
  const ok = { name: 'ok', description: 'Fine.', input: z.object({}), run: () => 1 };
  it('refuses a tool it could not serve or describe, when it is defined rather than when first called', () => {
    const refused: [unknown, RegExp][] = [
      [{ ...ok, name: 'a b' }, /names must be 1 to 64 characters/],
      [{ ...ok, description: 5 }, /the description must be a string/],
      [{ ...ok, input: { type: 'object' } }, /`input` must be a zod schema/],
      [{ ...ok, input: undefined }, /`input` must be a zod schema/],
      [{ ...ok, output: 'text' }, /`output` must be a zod schema/],
      [{ ...ok, store: { namespaces: 'memory' } }, /`store.namespaces` must be a list of namespaces/],
      [{ ...ok, store: { namespaces: [['']] } }, /each a list of non-empty labels/],
      [{ ...ok, timeoutMs: 0 }, /`timeoutMs` must be a positive number/],
      [{ ...ok, timeoutMs: '5s' }, /`timeoutMs` must be a positive number/],
      [{ ...ok, timeoutMs: Number.NaN }, /`timeoutMs` must be a positive number/],
    ];
    for (const [init, message] of refused) {
      expect(() => defineTool(init as never)).toThrow(InvalidToolSpecError);
      expect(() => defineTool(init as never)).toThrow(message);
    }
    expect(() => defineTool({ ...ok, run: undefined as never })).toThrow("Tool 'ok' needs a run function");
    expect(() => defineTool({ ...ok, state: 5 as never })).toThrow(/state must be true or a field name/);
    expect(() => defineTool(undefined as never)).toThrow("defineTool takes the tool's fields, got undefined");
    expect(defineTool({ ...ok, output: z.number(), store: { namespaces: [['memory', 'x']] } })).toMatchObject({
      name: 'ok',
      storeNamespaces: [['memory', 'x']],
    });
  });
});

describe('workerContentSecurityPolicy', () => {
  it('closes connections and foreign scripts', () => {
    expect(workerContentSecurityPolicy('deny')).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'none'; worker-src 'none'; font-src 'none'; img-src 'none'",
    );
    expect(workerContentSecurityPolicy(['https://api.example.com/v1', 'http://localhost:8080'])).toContain(
      'connect-src https://api.example.com http://localhost:8080;',
    );
  });

  it('refuses something that is not an origin', () => {
    expect(() => workerContentSecurityPolicy(['api.example.com'])).toThrow(/Expected an origin/);
    expect(() => workerContentSecurityPolicy(['https://a.com; script-src *'])).toThrow(/Expected an origin/);
    // A wildcard host would open connections to every subdomain.
    expect(() => workerContentSecurityPolicy(['https://*.example.com'])).toThrow(/Expected an origin/);
  });
});

describe('judgeStoppedCalls', () => {
  const call = (id: number, name = 'add', extra: Partial<HeldCall> = {}): HeldCall => ({
    id,
    toolCall: { id: `call_${id}`, name },
    kills: 0,
    ...extra,
  });
  const stopped = (over: Partial<StoppedWorker<HeldCall>>): StoppedWorker<HeldCall> => ({
    sent: [],
    unstarted: new Set(),
    connected: true,
    idempotent: new Set(),
    culprit: { toolCallId: 'call_9', toolName: 'spin' },
    reason: 'call call_9 (spin) timed out',
    ...over,
  });

  it('sends elsewhere, in their original order, the calls never posted or never started', () => {
    const timedOut = new ToolTimeoutError({ toolName: 'add', toolCallId: 'call_2', timeoutMs: 5 });
    const late = call(2, 'add', { timedOut });
    const verdict = judgeStoppedCalls(stopped({ sent: [call(4), late, call(3)], unstarted: new Set([2, 3, 4]) }));
    expect(verdict.retry.map((c) => c.id)).toEqual([2, 3, 4]);
    expect(verdict.recovered).toBe(3);
    expect(verdict.failed).toEqual([]);
    // Pure: it never ran, so no kill is counted (and PoolCall.requeue forgets its timeout).
    expect(late).toEqual(call(2, 'add', { timedOut }));
  });

  it('fails a started call with WorkerCrashedError naming the culprit, and one that ran out of time with its timeout', () => {
    const timedOut = new ToolTimeoutError({ toolName: 'add', toolCallId: 'call_2', timeoutMs: 5 });
    const verdict = judgeStoppedCalls(stopped({ sent: [call(1), call(2, 'add', { timedOut })] }));
    expect(verdict.retry).toEqual([]);
    expect(verdict.failed.map(([c, e]) => [c.id, e])).toEqual([
      [2, timedOut],
      [1, expect.any(WorkerCrashedError)],
    ]);
    const error = verdict.failed[1]?.[1] as WorkerCrashedError;
    expect(error.culprit).toEqual({ toolCallId: 'call_9', toolName: 'spin' });
    expect(error.toolCallId).toBe('call_1');
    expect(error.message).toContain('call_9');
    expect(verdict.suspects).toEqual([]); // the culprit is known: only its tool is quarantined (by the pool)
  });

  it('runs an idempotent innocent once more, but not a second time, and never the culprit', () => {
    const innocent = call(1, 'read');
    const culprit = call(9, 'read');
    const first = judgeStoppedCalls(
      stopped({
        sent: [innocent, culprit],
        idempotent: new Set(['read']),
        culprit: { toolCallId: 'call_9', toolName: 'read' },
      }),
    );
    expect(first.rerun).toEqual([innocent]);
    expect(first.retry).toEqual([innocent]);
    expect(first.failed.map(([c]) => c)).toEqual([culprit]);
    // Its first kill counted (as PoolCall.requeue counts it for a re-run), a second is final.
    const again = { ...innocent, kills: 1 };
    const second = judgeStoppedCalls(stopped({ sent: [again], idempotent: new Set(['read']) }));
    expect(second.rerun).toEqual([]);
    expect(second.failed[0]?.[1]).toBeInstanceOf(WorkerCrashedError);
  });

  it('blames the one call running in a crash with no culprit, and suspects every call when several ran', () => {
    const alone = judgeStoppedCalls(
      stopped({ sent: [call(1, 'hog')], culprit: undefined, idempotent: new Set(['hog']) }),
    );
    expect(alone.suspects).toEqual(['hog']);
    expect(alone.rerun).toEqual([]); // the culprit itself is not re-run, idempotent or not
    expect((alone.failed[0] as [HeldCall, WorkerCrashedError])[1].culprit).toEqual({
      toolCallId: 'call_1',
      toolName: 'hog',
    });
    const several = judgeStoppedCalls(stopped({ sent: [call(1, 'a'), call(2, 'b')], culprit: undefined }));
    expect(several.suspects).toEqual(['a', 'b']);
    expect(several.failed.map(([, e]) => (e as WorkerCrashedError).culprit)).toEqual([undefined, undefined]);
  });

  it('blames the call whose time ran out before the page knew it started, once it is taken as started', () => {
    // The pool names no culprit when a call's deadline passes before its worker said it began
    // it: it may be a call queued behind the one holding the worker.
    const timedOut = new ToolTimeoutError({ toolName: 'spin', toolCallId: 'call_1', timeoutMs: 5 });
    const spin = call(1, 'spin', { timedOut });
    const verdict = judgeStoppedCalls(stopped({ sent: [spin, call(2, 'add')], culprit: undefined }));
    expect(verdict.failed.map(([c, e]) => [c.id, e])).toEqual([
      [1, timedOut],
      [2, expect.any(WorkerCrashedError)],
    ]);
    expect((verdict.failed[1] as [HeldCall, WorkerCrashedError])[1].culprit).toEqual({
      toolCallId: 'call_1',
      toolName: 'spin',
    });
    expect(verdict.suspects).toEqual(['spin']); // not 'add', which only ran beside it
  });

  it('never blames or fails a call whose time ran out while another held its worker: it runs elsewhere', () => {
    // The tool that declared no limit of its own (Infinity) is the one that started and holds
    // the worker; the innocent call posted after it never started.
    const timedOut = new ToolTimeoutError({ toolName: 'add', toolCallId: 'call_2', timeoutMs: 5 });
    const innocent = call(2, 'add', { timedOut });
    const verdict = judgeStoppedCalls(
      stopped({ sent: [call(1, 'hog'), innocent], unstarted: new Set([2]), culprit: undefined }),
    );
    expect(verdict.retry).toEqual([innocent]);
    expect(verdict.failed.map(([c]) => c)).not.toContain(innocent); // its timeout is not its fate
    expect(verdict.suspects).toEqual(['hog']);
    expect((verdict.failed[0] as [HeldCall, WorkerCrashedError])[1].culprit).toEqual({
      toolCallId: 'call_1',
      toolName: 'hog',
    });
  });

  it('fails everything sent to a worker that never came up with WorkerStartError, and retries nothing it was sent', () => {
    const verdict = judgeStoppedCalls(
      stopped({
        sent: [call(1), call(2), call(3)],
        unstarted: new Set([1, 3]),
        connected: false,
        culprit: undefined,
      }),
    );
    expect(verdict.failed.map(([c, e]) => [c.id, e.constructor])).toEqual([
      [1, WorkerStartError],
      [2, WorkerStartError],
      [3, WorkerStartError],
    ]);
    expect(verdict.retry).toEqual([]); // rather than loop on a broken script
    expect(verdict.suspects).toEqual([]);
  });
});

describe('StartedCalls', () => {
  it('the highest count reported, plus the call it may be stuck in', () => {
    const started = new StartedCalls();
    expect([started.number(), started.number(), started.number()]).toEqual([0, 1, 2]);
    started.reported(2);
    started.reported(1); // an older report changes nothing
    expect(started.close()).toBe(3);
  });

  it('says which calls the worker said it began', () => {
    const started = new StartedCalls();
    const [a, b] = [started.number(), started.number()];
    expect([started.begun(-1), started.begun(a), started.begun(b)]).toEqual([false, false, false]);
    started.reported(1);
    expect([started.begun(a), started.begun(b)]).toEqual([true, false]);
    started.final(2);
    expect(started.begun(b)).toBe(true);
  });

  it('the exact count once the worker gives it, and says when it comes', () => {
    const started = new StartedCalls();
    started.number();
    started.number();
    started.reported(1);
    let told = 0;
    started.onFinal = () => told++;
    expect(started.known).toBe(false);
    started.final(1);
    expect(told).toBe(1);
    expect(started.known).toBe(true);
    expect(started.close()).toBe(1); // not 2: it said exactly
  });

  it("holds a worker's counts to what is possible: within the calls posted, never below what it said before", () => {
    // A worker's word is untrusted: NaN or a count past the calls posted would have let a call it
    // began be taken for unstarted and run again elsewhere.
    const started = new StartedCalls();
    for (let i = 0; i < 3; i++) started.number();
    started.reported(2);
    started.final(1); // below what it reported: a call it said it began did begin
    expect(started.close()).toBe(2);
    for (const count of [Number.NaN, -1, 1.5, 99]) {
      const other = new StartedCalls();
      for (let i = 0; i < 3; i++) other.number();
      other.final(count);
      expect(other.close()).toBe(3); // all of them taken as started: none runs twice
    }
  });
});

describe("charge: the page's limits on what a call sends back", () => {
  const limits: OutputLimits = { maxResultSize: 100, maxProgressSize: 150, maxTurnSize: 250 };
  const call = { toolCall: { id: 'call_1', name: 'flood' } };

  it('refuses a result over its limit, counting nothing of it', () => {
    const spend: CallSpend = { progress: 0, turn: { used: 0 } };
    expect(charge(limits, spend, 'result', 'x'.repeat(150))).toBe('result');
    expect(spend.turn?.used).toBe(0);
    expect(charge(limits, spend, 'result', 'x'.repeat(50))).toBeUndefined();
    expect(spend.turn?.used).toBeGreaterThan(50);
  });

  it("adds up a call's progress, and refuses the delta that goes past it", () => {
    const spend: CallSpend = { progress: 0 };
    expect(charge(limits, spend, 'progress', 'x'.repeat(60))).toBeUndefined();
    expect(charge(limits, spend, 'progress', 'x'.repeat(60))).toBeUndefined();
    expect(charge(limits, spend, 'progress', 'x'.repeat(60))).toBe('progress');
  });

  it("adds up a turn's calls together: the call that goes past it is refused", () => {
    const turn = { used: 0 };
    const [a, b, c] = [0, 1, 2].map((): CallSpend => ({ progress: 0, turn }));
    expect(charge(limits, a as CallSpend, 'result', 'x'.repeat(90))).toBeUndefined();
    expect(charge(limits, b as CallSpend, 'progress', 'x'.repeat(90))).toBeUndefined();
    expect(charge(limits, c as CallSpend, 'result', 'x'.repeat(90))).toBe('turn');
  });

  it('says which limit, and how large, in an error the model can read', () => {
    const error = overLimit(OUTPUT_LIMITS, 'progress', call);
    expect(error).toBeInstanceOf(ToolOutputLimitError);
    expect(error).toMatchObject({ limit: 'progress', maxSize: 16 * 2 ** 20, toolName: 'flood', toolCallId: 'call_1' });
    expect(error.message).toBe(
      "Tool 'flood' (call call_1) sent back too much: the progress it streamed is more than the page accepts from one call (about 16,777,216 characters). Return less: a summary, or one page of the data.",
    );
  });
});
