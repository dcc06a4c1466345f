/** Whether `namespace` begins with the labels of `prefix` (every namespace begins with []). */
export function startsWith(namespace: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > namespace.length) return false;
  for (let i = 0; i < prefix.length; i++) if (namespace[i] !== prefix[i]) return false;
  return true;
}
