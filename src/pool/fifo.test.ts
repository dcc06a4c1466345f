import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Fifo } from './call-dispatch';

describe('Fifo', () => {
  it('gives items back in the order they came, whatever the mix of operations', () => {
    const op = fc.oneof(
      fc.record({ push: fc.integer() }),
      fc.record({ front: fc.array(fc.integer(), { maxLength: 5 }) }),
      fc.constant({ shift: true }),
      fc.constant({ clear: true }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), (ops) => {
        const fifo = new Fifo<number>();
        const model: number[] = [];
        for (const o of ops) {
          if ('push' in o) {
            fifo.push(o.push);
            model.push(o.push);
          } else if ('front' in o) {
            fifo.pushFront(o.front);
            model.unshift(...o.front);
          } else if ('shift' in o) expect(fifo.shift()).toBe(model.shift());
          else {
            fifo.clear();
            model.length = 0;
          }
          expect(fifo.size).toBe(model.length);
          expect(fifo.peek()).toBe(model[0]);
        }
      }),
    );
  });

  it('stays in order across compaction (thousands taken from the front)', () => {
    const fifo = new Fifo<number>();
    for (let i = 0; i < 5000; i++) fifo.push(i);
    for (let i = 0; i < 3000; i++) expect(fifo.shift()).toBe(i);
    fifo.pushFront([-2, -1]);
    for (let i = 5000; i < 6000; i++) fifo.push(i);
    expect(fifo.size).toBe(3002);
    const rest: number[] = [];
    for (let x = fifo.shift(); x !== undefined; x = fifo.shift()) rest.push(x);
    expect(rest).toEqual([-2, -1, ...Array.from({ length: 3000 }, (_, i) => 3000 + i)]);
    expect(fifo.shift()).toBeUndefined();
    expect(fifo.size).toBe(0);
  });

  it('puts a long list in front without spreading it into arguments (no stack overflow)', () => {
    const fifo = new Fifo<number>();
    fifo.push(1);
    fifo.pushFront(Array.from({ length: 300_000 }, () => 0));
    expect(fifo.size).toBe(300_001);
  });
});
