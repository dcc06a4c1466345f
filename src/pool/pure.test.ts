import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { command, convertResult, withArtifact } from '../../worker/results';
import { DeadlineHeap } from './deadline-heap';
import { workerContentSecurityPolicy } from './worker-csp';

describe('DeadlineHeap', () => {
  it('hands back expired items earliest first, whatever the insertion order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 })), fc.integer({ min: 0, max: 1000 }), (deadlines, now) => {
        const heap = new DeadlineHeap<number>();
        for (const [i, d] of deadlines.entries()) heap.push(d, i);
        const expired = heap.expired(now);
        const expected = deadlines
          .map((d, i) => [d, i] as const)
          .filter(([d]) => d <= now)
          .sort((a, b) => a[0] - b[0]);
        expect(expired.map((i) => deadlines[i])).toEqual(expected.map(([d]) => d));
        expect(heap.size).toBe(deadlines.length - expired.length);
        const rest = deadlines.filter((d) => d > now);
        expect(heap.peek()).toBe(rest.length ? Math.min(...rest) : undefined);
      }),
    );
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

  it('reads artifacts and commands', () => {
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
    expect(convertResult(command({ update: { n: 1 }, result: { ok: true } }))).toEqual({
      ok: true,
      result: { content: '{"ok":true}', kind: 'json', update: { n: 1 } },
    });
    expect(convertResult(command({ update: { f: () => 1 } }))).toEqual({
      ok: false,
      reason: 'the state update at result.update.f is a function',
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
  });
});
