// The 'browser-plain' project really runs without cross-origin isolation (the hosted demo's case).
import { expect, it } from 'vitest';

it('is not cross-origin isolated: no SharedArrayBuffer', () => {
  expect(crossOriginIsolated).toBe(false);
  expect(typeof SharedArrayBuffer).toBe('undefined');
});
