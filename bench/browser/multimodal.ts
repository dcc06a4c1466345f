// Images from tools: what a 5 MB image costs from a sealed worker tool to the page.
import { fitImages } from '../../src/messages/fit-images';
import { base64FromBytes } from '../../src/messages/media-data';
import type { Message } from '../../src/messages/types';
import { createWorkerPool } from '../../src/pool/worker-pool';
import { type BenchCase, time } from '../case';
import imageToolUrl from '../workers/image-tool.worker.ts?worker&url';

/** A 4,000 × 3,000 PNG of noise (about 48 MB of pixels, 64 MB of base64): a big photo's worst case. */
async function bigPhoto(): Promise<string> {
  const width = 4000;
  const height = 3000;
  const pixels = new Uint8ClampedArray(width * height * 4);
  for (let o = 0; o < pixels.length; o += 65_536) crypto.getRandomValues(pixels.subarray(o, o + 65_536));
  for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
  const canvas = new OffscreenCanvas(width, height);
  (canvas.getContext('2d') as OffscreenCanvasRenderingContext2D).putImageData(
    new ImageData(pixels, width, height),
    0,
    0,
  );
  return base64FromBytes(new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer()));
}

export const multimodalCases: BenchCase[] = [
  {
    name: 'multimodal/fit-image-long-tasks',
    unit: 'count',
    target: { max: 0, of: 'median' },
    repeat: 3,
    warmup: 1,
    note: "main-thread long tasks (PerformanceObserver longtask) while fitImages makes a 4,000 × 3,000 noise PNG fit Anthropic's 5 MB (decode, resize and encode in the browser's own threads)",
    async setup() {
      const photo = await bigPhoto();
      return {
        sample: async () => {
          // A message of its own each time (fitImages keeps what it made for a part it has seen),
          // written as data: userMessage would check its 64 MB of base64 here, in the task measured.
          const messages: Message[] = [
            { role: 'user', content: [{ type: 'image', data: photo, mediaType: 'image/png' }] },
          ];
          const entries: PerformanceEntry[] = [];
          const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
          observer.observe({ type: 'longtask' });
          await fitImages(messages, 'anthropic');
          await new Promise((r) => setTimeout(r, 50));
          observer.disconnect();
          return entries.length;
        },
      };
    },
  },
  {
    name: 'multimodal/image-result-5mb',
    unit: 'ms',
    anchor: 'anchor/framed-5mb-transfer',
    target: { max: 1.5 },
    note: 'a sealed worker tool returns a 5 MB PNG (bytes): read into base64 in the worker, sent as a string, the call settled on the page with the image beside its text',
    async setup() {
      const pool = createWorkerPool({ worker: imageToolUrl, size: 1 });
      await pool.call({ id: 'warm', name: 'image', args: {} });
      let n = 0;
      return {
        sample: () => time(() => pool.call({ id: `image_${n++}`, name: 'image', args: {} })),
        teardown: () => pool.close(),
      };
    },
  },
];
