/** Structured output streamed part by part: is a partial object one moment of the final one? */

/** True when `partial` is what a streamed `final` can look like part-way: a prefix of it. */
export function isPrefixOf(partial: unknown, final: unknown): boolean {
  if (typeof partial === 'string') return typeof final === 'string' && final.startsWith(partial);
  if (typeof partial === 'number') return typeof final === 'number' && String(final).startsWith(String(partial));
  if (Array.isArray(partial))
    return (
      Array.isArray(final) &&
      partial.length <= final.length &&
      partial.every((item, i) =>
        i < partial.length - 1 ? JSON.stringify(item) === JSON.stringify(final[i]) : isPrefixOf(item, final[i]),
      )
    );
  if (typeof partial === 'object' && partial !== null)
    return (
      typeof final === 'object' &&
      final !== null &&
      Object.entries(partial).every(
        ([k, v]) => Object.hasOwn(final, k) && isPrefixOf(v, (final as Record<string, unknown>)[k]),
      )
    );
  return partial === final;
}
