import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPartialJsonParser, parsePartialJson } from './partial-json-parser';

/** Feed `text` in the given pieces; return a snapshot of the value after each piece. */
function feed(pieces: string[]) {
  const parser = createPartialJsonParser();
  const snapshots = pieces.map((p) => structuredClone(parser.push(p)));
  return { parser, snapshots };
}

/** Split `text` at the given cut positions. */
function cut(text: string, positions: number[]): string[] {
  const sorted = [...new Set(positions.map((p) => Math.min(Math.max(p, 0), text.length)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const p of sorted) {
    out.push(text.slice(from, p));
    from = p;
  }
  out.push(text.slice(from));
  return out;
}

/**
 * `partial` is a view of `whole` cut short: every finished part equal, the last open part a
 * prefix of its final form, nothing that the whole does not have.
 */
function isPrefixView(partial: unknown, whole: unknown): boolean {
  if (partial === undefined) return true;
  if (typeof whole === 'string') return typeof partial === 'string' && whole.startsWith(partial);
  if (typeof whole === 'number') return typeof partial === 'number';
  if (whole === null || typeof whole === 'boolean') return partial === whole;
  if (Array.isArray(whole)) {
    if (!Array.isArray(partial) || partial.length > whole.length) return false;
    return partial.every((item, i) =>
      i < partial.length - 1 ? isDeepStrictEqual(item, whole[i]) : isPrefixView(item, whole[i]),
    );
  }
  if (typeof partial !== 'object' || partial === null || Array.isArray(partial)) return false;
  const wholeKeys = Object.keys(whole as object);
  const keys = Object.keys(partial);
  if (keys.length > wholeKeys.length) return false;
  return keys.every((key, i) => {
    if (key !== wholeKeys[i]) return false;
    const a = (partial as Record<string, unknown>)[key];
    const b = (whole as Record<string, unknown>)[key];
    return i < keys.length - 1 ? isDeepStrictEqual(a, b) : isPrefixView(a, b);
  });
}

function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

describe('parsePartialJson', () => {
  it.each([
    ['{"a": 3, "b": 1', { a: 3, b: 1 }],
    ['{"a": "hel', { a: 'hel' }],
    ['{"a": "', { a: '' }],
    ['{"a": tru', {}],
    ['{"a": true, "b": nul', { a: true }],
    ['{"a": 1, "b', { a: 1 }],
    ['{"a": 1, "b":', { a: 1 }],
    ['{"a": 1, "b": ', { a: 1 }],
    ['{"a": -', {}],
    ['{"a": 1.', { a: 1 }],
    ['{"a": 1.5e', { a: 1.5 }],
    ['{"a": [1, 2, {"b": [', { a: [1, 2, { b: [] }] }],
    ['[1, "x', [1, 'x']],
    ['{"a": "x\\', { a: 'x' }],
    ['{"a": "x\\u00', { a: 'x' }],
    ['{"a": "x\\u00e9', { a: 'xé' }],
    ['{"a": "\\ud83d', { a: '' }],
    ['{"a": "\\ud83d\\ude00', { a: '😀' }],
    ['{', {}],
  ])('%s → best effort', (text, expected) => {
    const result = parsePartialJson(text);
    expect(result.state).toBe('repaired');
    expect(result.value).toEqual(expected);
  });

  it.each([['{"a": [1, {"b": null}], "c": "d\\n"}'], ['  "text"  '], ['123'], ['-0.5e-3'], ['[]'], ['{}'], ['true']])(
    '%s is complete and equals JSON.parse',
    (text) => {
      expect(parsePartialJson(text)).toEqual({ state: 'complete', value: JSON.parse(text) });
    },
  );

  it.each([
    ['{a: 1}', 1],
    ['{"a": 1,}', 8],
    ['[1,]', 3],
    ['{"a" 1}', 5],
    ['{"a": 01}', 6],
    ['{"a": tx}', 7],
    ['{"a": 1} x', 9],
    ['{"a": "\\x"}', 8],
    ['{"a": "\\u12G4"}', 11],
    ['{"a": "line\nbreak"}', 11],
    ['not json', 1],
    ['<html>', 0],
    ['{"a": 1-2}', 6],
  ])('%s fails, reporting position %i', (text, position) => {
    const result = parsePartialJson(text);
    expect(result.state).toBe('failed');
    expect(result.value).toBeUndefined();
    expect(result.error).toContain(`at position ${position}`);
    expect(() => JSON.parse(text)).toThrow();
  });

  it('is empty, not failed, for no text', () => {
    expect(parsePartialJson('')).toEqual({ state: 'repaired', value: undefined });
    expect(parsePartialJson('   ')).toEqual({ state: 'repaired', value: undefined });
  });

  it('keeps __proto__, constructor and prototype keys as own data', () => {
    const text = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}}';
    const { value, state } = parsePartialJson(text);
    expect(state).toBe('complete');
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(value as object)).toEqual(['__proto__', 'constructor']);
    expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(text)));
    // and while it is still arriving
    for (let i = 1; i < text.length; i++) parsePartialJson(text.slice(0, i));
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('createPartialJsonParser', () => {
  it('takes text only', () => {
    expect(() => createPartialJsonParser().push(5 as never)).toThrow('Expected text to push, got number');
    expect(() => createPartialJsonParser().push(null as never)).toThrow('Expected text to push, got null');
  });

  it('shows the seed example grow chunk by chunk', () => {
    const { snapshots, parser } = feed(['{"a": 3, ', '"b": 1', '2}']);
    expect(snapshots).toEqual([{ a: 3 }, { a: 3, b: 1 }, { a: 3, b: 12 }]);
    expect(parser.state).toBe('complete');
  });

  it('returns one live value that it extends in place', () => {
    const parser = createPartialJsonParser();
    const first = parser.push('{"list": [1');
    const second = parser.push(', 2]}');
    expect(second).toBe(first);
    expect(first).toEqual({ list: [1, 2] });
  });

  it('decodes escapes split at every position', () => {
    const text = '{"s": "a\\"b\\\\c\\u00e9\\ud83d\\ude00\\n\\/"}';
    const whole = JSON.parse(text);
    for (let i = 0; i <= text.length; i++) {
      const { parser, snapshots } = feed([text.slice(0, i), text.slice(i)]);
      expect(parser.value).toEqual(whole);
      expect(isPrefixView(snapshots[0], whole)).toBe(true);
    }
  });

  it('never shows half of a surrogate pair split between chunks', () => {
    const { snapshots } = feed(['{"s": "x\ud83d', '\ude00y"}']);
    expect(snapshots).toEqual([{ s: 'x' }, { s: 'x😀y' }]);
  });

  it('stops at the first bad character and keeps what it had', () => {
    const parser = createPartialJsonParser();
    parser.push('{"a": 1, ');
    expect(parser.push('x')).toEqual({ a: 1 });
    expect(parser.state).toBe('failed');
    expect(parser.error).toMatch(/Unexpected character "x" at position 9/);
    expect(parser.push('"b": 2}')).toEqual({ a: 1 });
  });

  it('completes a top-level number only at finish()', () => {
    const parser = createPartialJsonParser();
    expect(parser.push('12')).toBe(12);
    expect(parser.state).toBe('repaired');
    expect(parser.finish()).toEqual({ state: 'complete', value: 12 });
  });

  it('reads any chunking of any JSON to JSON.parse, every step a prefix view', () => {
    fc.assert(
      fc.property(
        fc.jsonValue(),
        fc.constantFrom(undefined, 0, 2, '\t'),
        fc.array(fc.nat(), { maxLength: 12 }),
        (value, indent, positions) => {
          const text = JSON.stringify(value, null, indent);
          const whole = JSON.parse(text);
          const { parser, snapshots } = feed(
            cut(
              text,
              positions.map((p) => p % (text.length + 1)),
            ),
          );
          expect(parser.finish()).toEqual({ state: 'complete', value: whole });
          for (const snapshot of snapshots.slice(0, -1)) expect(isPrefixView(snapshot, whole)).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
  });

  describe('at long lengths', () => {
    /** About `length` characters of text with every kind of character a string can hold. */
    function longText(length: number): string {
      const parts = [
        'plain run of text ',
        'quote " and \\ backslash ',
        'line\nbreak\ttab ',
        'café ',
        '😀🎉 ',
        '\u0001 ',
      ];
      let text = '';
      for (let i = 0; text.length < length; i++) text += parts[i % parts.length];
      return text;
    }

    /** Cut `text` into pieces of 1 to `max` characters from a fixed seed (escapes and pairs cut anywhere). */
    function pieces(text: string, max: number): string[] {
      let seed = 7;
      const out: string[] = [];
      for (let at = 0; at < text.length; ) {
        seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
        const size = 1 + (seed % max);
        out.push(text.slice(at, at + size));
        at += size;
      }
      return out;
    }

    it('reads a long string value fed in many pieces to JSON.parse, each step a prefix', () => {
      const content = longText(300_000);
      const text = JSON.stringify({ path: 'notes.md', content });
      const parser = createPartialJsonParser();
      const chunks = pieces(text, 40);
      chunks.forEach((chunk, k) => {
        const value = parser.push(chunk) as { content?: string };
        // A sample of the steps (reading every one would make the test itself quadratic).
        if (k % 97 !== 0 || value.content === undefined) return;
        expect(content.startsWith(value.content)).toBe(true);
        const last = value.content.charCodeAt(value.content.length - 1);
        expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
      });
      expect(parser.finish()).toEqual({ state: 'complete', value: { path: 'notes.md', content } });
    });

    it('reads escapes and surrogate pairs cut at every piece boundary of a long string', () => {
      // Every escape of the string is written as \uXXXX, surrogate pairs as two escapes.
      const content = longText(20_000);
      let escaped = '';
      for (let i = 0; i < content.length; i++) escaped += `\\u${content.charCodeAt(i).toString(16).padStart(4, '0')}`;
      const whole = { s: content };
      for (const max of [1, 3, 5, 7, 13]) {
        const parser = createPartialJsonParser();
        for (const chunk of pieces(`{"s": "${escaped}"}`, max)) parser.push(chunk);
        expect(parser.finish()).toEqual({ state: 'complete', value: whole });
      }
    });

    it('never shows half of a raw surrogate pair that a piece ends inside, however long the string', () => {
      const head = 'x'.repeat(100_000);
      const parser = createPartialJsonParser();
      parser.push(`{"s": "${head}`);
      expect(parser.push('\ud83d')).toEqual({ s: head });
      expect(parser.push('\ude00')).toEqual({ s: `${head}😀` });
      // A high half that no low half follows is kept, as JSON.parse keeps it.
      parser.push('\ud83d');
      expect(parser.push('\\n"}')).toEqual({ s: `${head}😀\ud83d\n` });
      expect(parser.state).toBe('complete');
    });

    it('reads the values after a long string, in many pieces, to JSON.parse', () => {
      const value = {
        big: longText(200_000),
        after: [1, { x: true, y: null }, 'short'],
        key: -1.5e3,
        more: { nested: ['a', longText(50_000)] },
      };
      const text = JSON.stringify(value, null, 1);
      const parser = createPartialJsonParser();
      let seenAfter = false;
      for (const chunk of pieces(text, 64)) {
        const partial = parser.push(chunk) as Record<string, unknown>;
        if (!seenAfter && partial.after !== undefined) {
          seenAfter = true;
          // The long string is whole once its closing quote is read.
          expect(partial.big).toBe(value.big);
        }
      }
      expect(seenAfter).toBe(true);
      expect(parser.finish()).toEqual({ state: 'complete', value });
    });

    it('reads a long key and a long number', () => {
      const key = longText(50_000);
      const digits = '9'.repeat(10_000);
      const text = `{${JSON.stringify(key)}: ${digits}.5, "n": 1}`;
      const parser = createPartialJsonParser();
      for (const chunk of pieces(text, 30)) parser.push(chunk);
      expect(parser.finish()).toEqual({ state: 'complete', value: JSON.parse(text) });
    });
  });

  it('reads one character at a time', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        const text = JSON.stringify(value);
        const whole = JSON.parse(text);
        const { parser, snapshots } = feed([...text]);
        expect(parser.finish().value).toEqual(whole);
        for (const snapshot of snapshots) expect(isPrefixView(snapshot, whole)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
