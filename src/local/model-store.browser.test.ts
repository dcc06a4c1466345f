// The download path against files the test server serves: progress, the browser's storage, an
// offline second load, resuming, deleting, and the files that must fail.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { afterEach, describe, expect, it } from 'vitest';
import { serve, unserve } from '../../test/served-files';
import { tinyGGUF } from '../../test/tiny-gguf';
import { LocalModelError } from '../errors/local-model-error';
import { userMessage } from '../messages/constructors';
import { localModel } from './local-model';
import { cachedModels, type DownloadProgress, deleteCachedModel, downloadModel } from './model-store';

// About 3.6 MB: the server hands it over in many chunks.
const bytes = tinyGGUF({ embedding: 256, seed: 7 });
const urls: string[] = [];
afterEach(async () => {
  for (const url of urls.splice(0)) await deleteCachedModel(url);
});
async function served(file: Uint8Array, name?: string) {
  const url = await serve(file, name);
  urls.push(url);
  return url;
}
const absolute = (url: string) => new URL(url, location.href).href;
/** The bytes' SHA-256 (comparing megabytes with toEqual takes Vitest seconds). */
const digest = async (data: BufferSource) =>
  Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', data)), (b) => b.toString(16)).join('');
const same = async (blob: Blob, expected: Uint8Array<ArrayBuffer>) =>
  expect(await digest(await blob.arrayBuffer())).toBe(await digest(expected));

describe('downloadModel and the browser storage', () => {
  it('downloads with progress, keeps the file, and loads it again with the server gone', async () => {
    const url = await served(bytes);
    const progress: DownloadProgress[] = [];
    const blob = await downloadModel(url, { onProgress: (p) => progress.push({ ...p }) });
    await same(blob, bytes);
    expect(progress[0]).toEqual({ loaded: 0, total: bytes.length });
    expect(progress.at(-1)).toEqual({ loaded: bytes.length, total: bytes.length });
    expect(progress.length).toBeGreaterThan(3);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]?.loaded).toBeGreaterThanOrEqual(progress[i - 1]?.loaded ?? 0);
    expect(await cachedModels()).toContainEqual({
      url: absolute(url),
      size: bytes.length,
      total: bytes.length,
      complete: true,
    });

    // Offline: the server no longer has it; the model loads from the storage and runs.
    await unserve(url);
    expect((await fetch(url)).headers.get('content-type')).not.toBe('application/octet-stream');
    const model = localModel({ model: url, wasmUrl, contextSize: 512 });
    try {
      const seen: DownloadProgress[] = [];
      const info = await model.load({ onProgress: (p) => seen.push(p) });
      expect(info.size).toBe(bytes.length);
      expect(seen).toEqual([{ loaded: bytes.length, total: bytes.length }]);
      const stream = model.stream({ messages: [userMessage('Hi')], maxTokens: 3 });
      for await (const _ of stream);
      expect(stream.message().usage?.outputTokens).toBe(3);
    } finally {
      await model.unload();
    }

    // Deleted, it is gone (and with the server gone too, the next download fails clearly).
    expect(await deleteCachedModel(url)).toBe(true);
    expect((await cachedModels()).map((m) => m.url)).not.toContain(absolute(url));
    await expect(downloadModel(url)).rejects.toMatchObject({ name: 'LocalModelError', reason: 'not-gguf' });
  });

  it('resumes an interrupted download from where it stopped', async () => {
    const url = await served(bytes);
    const controller = new AbortController();
    const first = await downloadModel(url, {
      signal: controller.signal,
      onProgress: ({ loaded }) => {
        if (loaded > 0) controller.abort(new Error('the connection dropped'));
      },
    }).catch((e: unknown) => e);
    expect(first).toMatchObject({ message: 'the connection dropped' });
    const [kept] = (await cachedModels()).filter((m) => m.url === absolute(url));
    expect(kept?.complete).toBe(false);
    expect(kept?.size).toBeGreaterThan(0);
    expect(kept?.size).toBeLessThan(bytes.length);

    const progress: DownloadProgress[] = [];
    const blob = await downloadModel(url, { onProgress: (p) => progress.push({ ...p }) });
    // It began where the first stopped (a Range request), and the file is whole.
    expect(progress[0]).toEqual({ loaded: kept?.size, total: bytes.length });
    await same(blob, bytes);
    expect((await cachedModels()).find((m) => m.url === absolute(url))?.complete).toBe(true);
  });

  it('refuses what is not a GGUF file and keeps nothing of it', async () => {
    const url = await served(new TextEncoder().encode('<!doctype html><title>Not found</title>'), 'page.gguf');
    const error = await downloadModel(url).catch((e: unknown) => e);
    expect(LocalModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'not-gguf' });
    expect((error as Error).message).toContain('"<!do"');
    expect((await cachedModels()).map((m) => m.url)).not.toContain(absolute(url));
  });

  it('fails clearly on a served GGUF that is cut short', async () => {
    const url = await served(bytes.slice(0, bytes.length - 1000));
    const model = localModel({ model: url, wasmUrl });
    const error = await model.load().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'LocalModelError', reason: 'cannot-load' });
    expect((error as Error).message).toContain(`its header describes ${bytes.length}`);
  });

  it('says when the server refuses', async () => {
    const error = await downloadModel('/test-results/served/no-such-model.gguf').catch((e: unknown) => e);
    // Vite answers a missing file with its page: not a GGUF file.
    expect(error).toMatchObject({ name: 'LocalModelError' });
  });
});
