/**
 * Images larger than a provider takes, made smaller for the request only: the thread keeps the
 * original. The work (base64 to bytes, `createImageBitmap` to decode and resize, an
 * `OffscreenCanvas` to encode) runs in a worker made for it, off the page's thread.
 */
import { UnsupportedContentError } from '../errors/unsupported-content-error';
import { IMAGE_LIMITS, type ImageLimits, over, tooLarge } from './image-limits';
import { readMediaData } from './media-data';
import type { ContentPart, Message } from './types';

/**
 * The messages as `format` can take them: each base64 image over its limits replaced by a JPEG
 * that fits (scaled to the longest side allowed, then smaller until its bytes fit). The same
 * array when nothing is too large. Throws `UnsupportedContentError` when an image is too large
 * and this JavaScript has no `OffscreenCanvas` to make it smaller (Node).
 */
export async function fitImages(messages: readonly Message[], format: string): Promise<readonly Message[]> {
  const limits = IMAGE_LIMITS[format];
  if (!limits || !messages.some((m) => tooLarge(m, limits))) return messages;
  // The worker is made when an image is not fitted yet (every step of a run sends the same history).
  let made: ReturnType<typeof fitter> | undefined;
  const run: Fitter = (base64, limits) => {
    if (typeof Worker === 'undefined') return fitBase64(base64, limits);
    made ??= fitter();
    return made.run(base64, limits);
  };
  try {
    return await Promise.all(
      messages.map(async (m) => {
        if ((m.role !== 'user' && m.role !== 'tool') || typeof m.content === 'string' || !tooLarge(m, limits)) return m;
        const content = await Promise.all(m.content.map((p) => fitPart(p, limits, format, run)));
        return { ...m, content } as Message;
      }),
    );
  } finally {
    made?.close();
  }
}

/** Images already made to fit, by part and format: the part objects of a thread's history stay the same. */
const fitted = new WeakMap<ContentPart, Map<string, ContentPart>>();

async function fitPart(part: ContentPart, limits: ImageLimits, format: string, run: Fitter): Promise<ContentPart> {
  if (part.type !== 'image' || !over(part, limits)) return part;
  const known = fitted.get(part)?.get(format);
  if (known) return known;
  const read = readMediaData(part.data, part.mediaType);
  if (read.kind === 'url') return part;
  const what = `an image of ${read.base64.length} bytes of base64`;
  if (typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined')
    throw new UnsupportedContentError({
      provider: format,
      part: what,
      where: 'a message',
      accepted: `images up to ${limits.maxBase64Bytes} bytes of base64 and ${limits.maxSide} px a side (a browser scales larger ones down; this JavaScript has no OffscreenCanvas)`,
    });
  const base64 = await run(read.base64, limits);
  if (base64 !== undefined) {
    const small: ContentPart = { type: 'image', data: base64, mediaType: 'image/jpeg' };
    fitted.set(part, (fitted.get(part) ?? new Map()).set(format, small));
    return small;
  }
  throw new UnsupportedContentError({
    provider: format,
    part: what,
    where: 'a message',
    accepted: `images up to ${limits.maxBase64Bytes} bytes of base64: it could not be made that small`,
  });
}

type Fitter = (base64: string, limits: ImageLimits) => Promise<string | undefined>;

/**
 * The fitting itself: decode, resize, encode as JPEG, smaller until it fits (undefined if it
 * never does). Self-contained (no name from outside it): it runs in a worker made from its own
 * source.
 */
async function fitBase64(base64: string, limits: ImageLimits): Promise<string | undefined> {
  const U8 = Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> };
  const bytes = U8.fromBase64 ? U8.fromBase64(base64) : Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const toBase64 = (b: Uint8Array) => {
    const native = (b as { toBase64?: () => string }).toBase64;
    if (native) return native.call(b);
    let binary = '';
    for (let i = 0; i < b.length; i += 0x8000) binary += String.fromCharCode(...b.subarray(i, i + 0x8000));
    return btoa(binary);
  };
  const source = await createImageBitmap(new Blob([bytes]));
  try {
    let scale = Math.min(1, limits.maxSide / Math.max(source.width, source.height));
    for (let attempt = 0; attempt < 8; attempt++, scale *= 0.7) {
      const width = Math.max(1, Math.round(source.width * scale));
      const height = Math.max(1, Math.round(source.height * scale));
      const bitmap = await createImageBitmap(source, {
        resizeWidth: width,
        resizeHeight: height,
        resizeQuality: 'high',
      });
      const canvas = new OffscreenCanvas(width, height);
      const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      // JPEG has no transparency: what was transparent is white, not black.
      g.fillStyle = '#fff';
      g.fillRect(0, 0, width, height);
      g.drawImage(bitmap, 0, 0);
      bitmap.close();
      const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.85 });
      const out = toBase64(new Uint8Array(await jpeg.arrayBuffer()));
      if (out.length <= limits.maxBase64Bytes) return out;
    }
    return undefined;
  } finally {
    source.close();
  }
}

/**
 * A worker running `fitBase64`, made from its source (no file to ship), for one `fitImages`
 * call; the page itself when none can be made (a Content-Security-Policy without `blob:` in
 * worker-src, say).
 */
function fitter(): { run: Fitter; close: () => void } {
  let worker: Worker | undefined;
  try {
    const source = `const fit = ${fitBase64.toString()};
onmessage = async (e) => {
  try { postMessage({ id: e.data.id, base64: await fit(e.data.base64, e.data.limits) }); }
  catch (error) { postMessage({ id: e.data.id, error: String(error) }); }
};`;
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    worker = new Worker(url);
    URL.revokeObjectURL(url);
  } catch {
    return { run: fitBase64, close: () => {} };
  }
  type Call = {
    base64: string;
    limits: ImageLimits;
    resolve: (b: string | undefined) => void;
    reject: (e: Error) => void;
  };
  const waiting = new Map<number, Call>();
  let next = 0;
  let broken = false;
  worker.onmessage = (event: MessageEvent<{ id: number; base64?: string; error?: string }>) => {
    const { id, base64, error } = event.data;
    const call = waiting.get(id);
    waiting.delete(id);
    if (!call) return;
    // A worker that failed at it (its source changed by a bundler's transform, say): the page tries.
    if (error !== undefined) fitBase64(call.base64, call.limits).then(call.resolve, call.reject);
    else call.resolve(base64);
  };
  worker.onerror = (event) => {
    // The worker could not start (refused by the page's policy, say): the page does the work.
    event.preventDefault();
    broken = true;
    for (const call of waiting.values()) fitBase64(call.base64, call.limits).then(call.resolve, call.reject);
    waiting.clear();
  };
  return {
    run: (base64, limits) => {
      if (broken) return fitBase64(base64, limits);
      const id = next++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { base64, limits, resolve, reject });
        worker?.postMessage({ id, base64, limits });
      });
    },
    close: () => worker?.terminate(),
  };
}
