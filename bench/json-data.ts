/** The JSON the parsing benchmarks stream: a document of a chosen size, cut into model-sized deltas. */

/** Deterministic tool arguments of about `bytes` bytes: nested objects, arrays, escapes, unicode. */
export function argumentsText(bytes: number): string {
  const items: unknown[] = [];
  const doc = { title: 'Trip plan for "Lisbon" – día 1', days: 3, budget: { amount: 1234.5, currency: 'EUR' }, items };
  // The document's length kept as items are added (stringifying it each time is quadratic).
  let length = JSON.stringify(doc).length;
  for (let i = 0; length < bytes; i++) {
    const item = {
      id: i,
      name: `Stop ${i}: café «${i % 7}»`,
      tags: ['walk', i % 2 ? 'food' : 'museum', `t${i % 13}`],
      score: ((i * 37) % 100) / 10,
      open: i % 3 !== 0,
      note: 'Line one\nline two with a \\ backslash and an emoji 😀',
    };
    length += JSON.stringify(item).length + (items.length > 0 ? 1 : 0);
    items.push(item);
  }
  return JSON.stringify(doc);
}

/** Chunk sizes of 8–32 characters from a fixed seed. */
export function chunksOf(text: string): string[] {
  let seed = 42;
  const out: string[] = [];
  for (let at = 0; at < text.length; ) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    const size = 8 + (seed % 25);
    out.push(text.slice(at, at + size));
    at += size;
  }
  return out;
}
