/// <reference lib="webworker" />
// One tool returning a 5 MB image (the multimodal benchmark): PNG bytes, made once.
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';

export const IMAGE_BYTES = 5 * 1024 * 1024;
let png: Uint8Array | undefined;

serveTools([
  defineTool({
    name: 'image',
    description: 'Return a 5 MB PNG.',
    input: z.object({}),
    run: () => {
      if (!png) {
        png = new Uint8Array(IMAGE_BYTES);
        png.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
        for (let i = 8; i < png.length; i++) png[i] = (i * 31) & 0xff;
      }
      return { content: [{ type: 'image', data: png, mediaType: 'image/png' }] };
    },
  }),
]);
