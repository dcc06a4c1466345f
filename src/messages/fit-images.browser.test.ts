// The scaling, where the browser has createImageBitmap and OffscreenCanvas.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userMessage } from './constructors';
import { fitImages } from './fit-images';
import { base64FromBytes, imageSize } from './media-data';
import type { ImagePart, UserMessage } from './types';

/** A PNG of `width` × `height`: noise (which compresses badly) or one colour. */
async function png(width: number, height: number, noise: boolean): Promise<string> {
  const canvas = new OffscreenCanvas(width, height);
  const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
  if (noise) {
    const pixels = new Uint8ClampedArray(width * height * 4);
    for (let o = 0; o < pixels.length; o += 65_536) crypto.getRandomValues(pixels.subarray(o, o + 65_536));
    for (let i = 3; i < pixels.length; i += 4) pixels[i] = 255;
    g.putImageData(new ImageData(pixels, width, height), 0, 0);
  } else {
    g.fillStyle = '#36c';
    g.fillRect(0, 0, width, height);
  }
  return base64FromBytes(new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer()));
}

const imageOf = (m: unknown) => ((m as UserMessage).content as ImagePart[])[1] as ImagePart;

afterEach(() => void vi.unstubAllGlobals());

describe('fitImages, in a browser', () => {
  it('scales an image wider than the provider takes to its longest side, keeping the shape; the thread keeps the original', async () => {
    // The work is done by the worker made for it, which starts and answers.
    const Real = Worker;
    const made: Worker[] = [];
    let errors = 0;
    vi.stubGlobal(
      'Worker',
      class extends Real {
        constructor(url: string | URL, options?: WorkerOptions) {
          super(url, options);
          made.push(this);
          this.addEventListener('error', () => errors++);
        }
      },
    );
    const original = userMessage([
      { type: 'text', text: 'What is this?' },
      { type: 'image', data: await png(9000, 300, false), mediaType: 'image/png' },
    ]);
    const [fitted] = await fitImages([original], 'anthropic');
    const image = imageOf(fitted);
    expect(image.mediaType).toBe('image/jpeg');
    expect(imageSize(image.data)).toEqual({ width: 8000, height: 267 });
    expect((fitted as UserMessage).content[0]).toEqual({ type: 'text', text: 'What is this?' });
    expect(imageOf(original).mediaType).toBe('image/png'); // untouched
    expect([made.length, errors]).toEqual([1, 0]);
    // The next step sends the same history: the image is not fitted again, no worker is made.
    const [again] = await fitImages([original], 'anthropic');
    expect(imageOf(again)).toBe(image);
    expect(made.length).toBe(1);
  });

  it('makes an image of more bytes than the provider takes small enough', async () => {
    const noisy = await png(1400, 1000, true); // about 7 MB of base64 PNG noise: over Anthropic's 5 MB
    expect(noisy.length).toBeGreaterThan(5 * 1024 * 1024);
    const [fitted] = await fitImages(
      [
        userMessage([
          { type: 'text', text: 'x' },
          { type: 'image', data: noisy },
        ]),
      ],
      'anthropic',
    );
    const image = imageOf(fitted);
    expect(image.data.length).toBeLessThanOrEqual(5 * 1024 * 1024);
    const size = imageSize(image.data);
    expect(size && size.width / size.height).toBeCloseTo(1400 / 1000, 1);
  });

  describe('where no worker can be made from a blob (a page whose CSP refuses it)', () => {
    const wide = async () => [
      userMessage([
        { type: 'text', text: 'x' },
        { type: 'image', data: await png(9000, 30, false), mediaType: 'image/png' },
      ]),
    ];

    it('does the work on the page when making the worker throws', async () => {
      const messages = await wide();
      vi.stubGlobal(
        'Worker',
        class {
          constructor() {
            throw new DOMException('Refused by the policy', 'SecurityError');
          }
        },
      );
      expect(imageSize(imageOf((await fitImages(messages, 'anthropic'))[0]).data)?.width).toBe(8000);
    });

    it('does the work on the page when the worker fails at it', async () => {
      const messages = await wide();
      vi.stubGlobal(
        'Worker',
        class {
          onmessage: ((event: MessageEvent) => void) | null = null;
          postMessage(data: { id: number }) {
            setTimeout(() =>
              this.onmessage?.(
                new MessageEvent('message', { data: { id: data.id, error: 'ReferenceError: __name is not defined' } }),
              ),
            );
          }
          terminate() {}
        },
      );
      expect(imageSize(imageOf((await fitImages(messages, 'anthropic'))[0]).data)?.width).toBe(8000);
    });

    it('does the work on the page when the worker fails to start', async () => {
      const messages = await wide();
      vi.stubGlobal(
        'Worker',
        class {
          onerror: ((event: Event) => void) | null = null;
          postMessage() {
            setTimeout(() => this.onerror?.(new Event('error', { cancelable: true })), 0);
          }
          terminate() {}
        },
      );
      expect(imageSize(imageOf((await fitImages(messages, 'anthropic'))[0]).data)?.width).toBe(8000);
    });
  });
});
