// A model too big for this browser's storage (the `quota` project: the profile is on a 40 MB disk,
// so this origin may keep about 24 MB). Chromium's estimate() still says 1 GiB there, so the
// refusal comes from the write that does not fit: clearly, and what was written is given back.
import { describe, expect, inject, it } from 'vitest';
import { serve } from '../../test/served-files';
import { LocalModelError } from '../errors/local-model-error';
import { cachedModels, deleteCachedModel, downloadModel } from './model-store';

const why = inject('smallDisk');
const MB = 1024 * 1024;

describe.skipIf(why !== '')(`downloadModel: a full storage${why ? ` (skipped: ${why})` : ''}`, () => {
  it('refuses a model that does not fit with storage-full, and keeps none of it', async () => {
    const file = new Uint8Array(40 * MB);
    file.set([0x47, 0x47, 0x55, 0x46, 3]); // "GGUF", version 3: the rest does not matter here
    const url = await serve(file);
    try {
      const error = await downloadModel(url).catch((e: unknown) => e);
      expect(LocalModelError.isInstance(error) ? error : String(error)).toMatchObject({ reason: 'storage-full' });
      expect((error as Error).message).toMatch(/does not fit in this browser's storage/);
      expect((await cachedModels()).map((m) => m.url)).not.toContain(new URL(url, location.href).href);
    } finally {
      await deleteCachedModel(url);
    }
  });
});
