import { StateMergeError } from '../errors/state-merge-error';
import type { Reducer } from './types';

/** One call's state update, with who made it. */
export interface StateUpdate {
  toolCallId: string;
  update: Record<string, unknown>;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Merge the updates of one turn's calls into the state, key by key, in call order: `replace`
 * (the default) takes the value, but two calls writing different values is a `StateMergeError`;
 * `append` concatenates lists (a single value is appended as one item); a function folds.
 * The state given is not changed.
 *
 * @example mergeUpdates({ cart: [] }, [{ toolCallId: 'a', update: { cart: ['tea'] } }], { cart: 'append' })
 */
export function mergeUpdates(
  state: Record<string, unknown>,
  updates: readonly StateUpdate[],
  reducers: Record<string, Reducer> = {},
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...state };
  const writers = new Map<string, { toolCallId: string; value: unknown }>();
  for (const { toolCallId, update } of updates) {
    for (const key of Object.keys(update)) {
      const value = update[key];
      const reducer = Object.hasOwn(reducers, key) ? reducers[key] : 'replace';
      if (reducer === 'append') {
        const current = next[key];
        const base = current === undefined ? [] : Array.isArray(current) ? current : [current];
        set(next, key, [...base, ...(Array.isArray(value) ? value : [value])]);
      } else if (typeof reducer === 'function') {
        set(next, key, reducer(next[key], value));
      } else {
        const earlier = writers.get(key);
        if (earlier && !same(earlier.value, value))
          throw new StateMergeError({ key, toolCallIds: [earlier.toolCallId, toolCallId] });
        writers.set(key, { toolCallId, value });
        set(next, key, value);
      }
    }
  }
  return next;
}

function set(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
