// Files a browser test puts on the test server (Vitest's own dev server serves the project's root,
// with Range requests): the local model's downloads fetch them as they would a model's host.
import { commands } from 'vitest/browser';

/** Serves `bytes` at a fresh address under /test-results/ and returns it. */
export async function serve(bytes: Uint8Array, name = 'model.gguf'): Promise<string> {
  const path = `test-results/served/${crypto.randomUUID()}-${name}`;
  let binary = '';
  for (let o = 0; o < bytes.length; o += 8192) binary += String.fromCharCode(...bytes.subarray(o, o + 8192));
  await commands.writeFile(`./${path}`, btoa(binary), 'base64');
  return `/${path}`;
}

/** Takes a served file away: what is fetched from there now is the server's 404 page. */
export async function unserve(url: string): Promise<void> {
  await commands.removeFile(`.${url}`);
}
