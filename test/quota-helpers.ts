/** What the `quota` project's tests share: data that does not compress, and giving the quota back. */

/** `bytes` random bytes as base64: a small disk would hold far more of anything that compresses. */
export function randomBase64(bytes: number, head: readonly number[] = []): string {
  const raw = new Uint8Array(bytes);
  for (let o = 0; o < raw.length; o += 65_536) crypto.getRandomValues(raw.subarray(o, o + 65_536));
  raw.set(head);
  let binary = '';
  for (let o = 0; o < raw.length; o += 8192) binary += String.fromCharCode(...raw.subarray(o, o + 8192));
  return btoa(binary);
}

/** Deletes the databases: the quota is the origin's, and the profile outlives the run. */
export async function giveQuotaBack(names: string[]): Promise<void> {
  for (const name of names.splice(0))
    await new Promise((settled) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = settled;
    });
}
