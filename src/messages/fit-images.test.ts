// In Node: what needs no canvas. The scaling itself runs in the browser (fit-images.browser.test.ts).
import { describe, expect, it } from 'vitest';
import { UnsupportedContentError } from '../errors/unsupported-content-error';
import { aiMessage, toolMessage, userMessage } from './constructors';
import { fitImages } from './fit-images';

/** A PNG header claiming `width` × `height`, padded to `bytes`, as base64. */
function png(width: number, height: number, bytes = 64): string {
  const b = new Uint8Array(bytes);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return Buffer.from(b).toString('base64');
}

describe('fitImages', () => {
  it('gives the same messages back when every image fits, and for a format with no limits', async () => {
    const messages = [
      userMessage([{ type: 'image', data: png(800, 600), mediaType: 'image/png' }]),
      aiMessage('Seen.'),
      toolMessage({ toolCallId: 'c', name: 'n', content: [{ type: 'image', data: 'https://example.com/huge.png' }] }),
    ];
    expect(await fitImages(messages, 'anthropic')).toBe(messages);
    const wide = [userMessage([{ type: 'image', data: png(9000, 10), mediaType: 'image/png' }])];
    expect(await fitImages(wide, 'ollama')).toBe(wide);
  });

  it('where nothing can scale an image down (no OffscreenCanvas), says so before anything is sent', async () => {
    const wide = [userMessage([{ type: 'image', data: png(9000, 10), mediaType: 'image/png' }])];
    await expect(fitImages(wide, 'anthropic')).rejects.toThrow(UnsupportedContentError);
    await expect(fitImages(wide, 'anthropic')).rejects.toThrow(
      /images up to 5242880 bytes of base64 and 8000 px a side/,
    );
  });
});
