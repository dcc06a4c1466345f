/**
 * A snapshot's copy of a value the agent keeps extending in place (streaming arguments, partial
 * structured output): new arrays and objects all the way down, the strings in them shared. A
 * string is immutable, so sharing one is as safe as copying it, and a 50 MB argument streaming
 * in is not copied once per frame (`structuredClone` did).
 */
export function copyLive<T>(value: T): T {
  const pending: [from: object, to: object][] = [];
  const open = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const copy = Array.isArray(v) ? [] : {};
    pending.push([v, copy]);
    return copy;
  };
  const root = open(value);
  // A stack, not recursion: arguments nested ten thousand deep do not overflow it.
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [from, to] = next as [Record<string, unknown>, Record<string, unknown>];
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) (to as unknown as unknown[])[i] = open(from[i]);
      continue;
    }
    for (const key of Object.keys(from)) {
      // A `__proto__` key the model wrote stays an own property (assigned, it would set the prototype).
      if (key === '__proto__')
        Object.defineProperty(to, key, {
          value: open(from[key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else to[key] = open(from[key]);
    }
  }
  return root as T;
}
