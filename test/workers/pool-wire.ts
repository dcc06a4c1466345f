/// <reference lib="webworker" />
// The pool's requests as they reach a worker (Comlink's APPLY of a ToolWorkerApi method), read by
// the hand-made workers of the tests that play a broken, foreign or thieving tool worker.

/** A request of the pool's: the method asked and its arguments, or undefined for anything else. */
export function poolRequest(data: unknown): { id: string; method: string; args: unknown[] } | undefined {
  const m = data as { id?: unknown; type?: unknown; path?: unknown[]; argumentList?: { value: unknown }[] } | null;
  if (typeof m?.id !== 'string' || m.type !== 'APPLY' || !Array.isArray(m.path)) return undefined;
  return { id: m.id, method: String(m.path[0]), args: (m.argumentList ?? []).map((a) => a.value) };
}

/** The answer to request `id`, as the worker's side of Comlink sends it. */
export const answer = (id: string, value: unknown) => ({ id, type: 'RAW', value });
