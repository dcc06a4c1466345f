import { describe, expect, it } from 'vitest';
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';
import { toContent, toContentPart } from './to-content-part';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const PDF = new TextEncoder().encode('%PDF-1.7\n%âãÏÓ\n');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

describe('toContentPart', () => {
  it('reads a File into base64, with its type and its name', async () => {
    const file = new File([PDF], 'report.pdf', { type: 'application/pdf' });
    expect(await toContentPart({ type: 'file', data: file })).toEqual({
      type: 'file',
      data: b64(PDF),
      mediaType: 'application/pdf',
      filename: 'report.pdf',
    });
    expect(await toContentPart({ type: 'file', data: file, filename: 'q3.pdf' })).toMatchObject({ filename: 'q3.pdf' });
    expect(await toContentPart({ type: 'image', data: new File([PNG], 'a.png', { type: 'image/png' }) })).toEqual({
      type: 'image',
      data: b64(PNG),
      mediaType: 'image/png',
      filename: 'a.png',
    });
    expect(await toContentPart({ type: 'image', data: new Blob([PNG]) })).toEqual({
      type: 'image',
      data: b64(PNG),
      mediaType: 'image/png',
    });
    await expect(toContentPart({ type: 'image', data: PNG, filename: 7 as never })).rejects.toThrow(/`filename`/);
  });

  it('keeps a media type as type/subtype in lower case: parameters and capitals go', async () => {
    const text = new Blob(['hello'], { type: 'text/plain; charset=utf-8' });
    expect(await toContentPart({ type: 'file', data: text })).toEqual({
      type: 'file',
      data: b64(new TextEncoder().encode('hello')),
      mediaType: 'text/plain',
    });
    expect(await toContentPart({ type: 'image', data: PNG, mediaType: 'Image/PNG' })).toMatchObject({
      mediaType: 'image/png',
    });
  });

  it('tells the type of a Blob without one, of bytes and of base64 by their first bytes', async () => {
    expect(await toContentPart({ type: 'image', data: new Blob([PNG]) })).toMatchObject({ mediaType: 'image/png' });
    expect(
      await toContentPart({ type: 'image', data: new Blob([PNG], { type: 'application/octet-stream' }) }),
    ).toMatchObject({ mediaType: 'image/png' });
    expect(await toContentPart({ type: 'file', data: PDF })).toEqual({
      type: 'file',
      data: b64(PDF),
      mediaType: 'application/pdf',
    });
    expect(await toContentPart({ type: 'image', data: PNG.buffer })).toMatchObject({ data: b64(PNG) });
    const view = new DataView(new Uint8Array([7, 7, ...PNG]).buffer, 2);
    expect(await toContentPart({ type: 'image', data: view })).toEqual({
      type: 'image',
      data: b64(PNG),
      mediaType: 'image/png',
    });
    expect(await toContentPart({ type: 'image', data: b64(PNG) })).toEqual({
      type: 'image',
      data: b64(PNG),
      mediaType: 'image/png',
    });
  });

  it('a given mediaType wins over the blob and the bytes', async () => {
    const blob = new Blob([PNG], { type: 'image/png' });
    expect(await toContentPart({ type: 'image', data: blob, mediaType: 'image/apng' })).toMatchObject({
      mediaType: 'image/apng',
    });
  });

  it('a data: URL becomes base64 and its type; an http(s) URL (string or URL) is kept as it is', async () => {
    expect(await toContentPart({ type: 'image', data: `data:image/png;base64,${b64(PNG)}` })).toEqual({
      type: 'image',
      data: b64(PNG),
      mediaType: 'image/png',
    });
    expect(await toContentPart({ type: 'image', data: new URL('https://example.com/cat.jpg') })).toEqual({
      type: 'image',
      data: 'https://example.com/cat.jpg',
    });
    expect(
      await toContentPart({ type: 'file', data: 'https://example.com/r.pdf', mediaType: 'application/pdf' }),
    ).toEqual({ type: 'file', data: 'https://example.com/r.pdf', mediaType: 'application/pdf' });
  });

  it('an unknown type is an UnknownMediaTypeError that says what the data was', async () => {
    const text = new TextEncoder().encode('just some text');
    await expect(toContentPart({ type: 'image', data: text })).rejects.toThrow(UnknownMediaTypeError);
    await expect(toContentPart({ type: 'image', data: text })).rejects.toThrow(
      'Cannot tell the media type of the image (14 bytes): its first bytes are not PNG, JPEG, GIF, WebP or PDF. Give `mediaType` on the part',
    );
    await expect(toContentPart({ type: 'file', data: new File([text], 'notes.bin') })).rejects.toThrow(
      "the file 'notes.bin' of 14 bytes with no type",
    );
    await expect(toContentPart({ type: 'file', data: b64(text) })).rejects.toThrow(UnknownMediaTypeError);
    await expect(toContentPart({ type: 'file', data: 'https://example.com/r' })).rejects.toThrow(
      'Cannot tell the media type of the file at https://example.com/r without fetching it',
    );
    const error = await toContentPart({ type: 'image', data: new Blob([text]) }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'UnknownMediaTypeError',
      part: 'image',
      source: 'a Blob of 14 bytes with no type',
    });
  });

  it('refuses what is not a part with a TypeError quoting it', async () => {
    await expect(toContentPart({ type: 'image', data: 'blob:https://a/1' })).rejects.toThrow(
      /Expected the image's data to be base64 or a URL, got `'blob:https:\/\/a\/1'` \(string\): it is a URL Moat cannot send/,
    );
    await expect(toContentPart({ type: 'image', data: 42 as never })).rejects.toThrow(
      /a File, a Blob, bytes, a URL or a string/,
    );
    await expect(toContentPart({ type: 'video', data: PNG } as never)).rejects.toThrow(/'text', 'image' or 'file'/);
    await expect(toContentPart({ type: 'text', text: 1 } as never)).rejects.toThrow(TypeError);
    await expect(toContentPart({ type: 'image', data: PNG, mediaType: 'png' })).rejects.toThrow(/type\/subtype/);
    await expect(toContentPart({ type: 'image', data: PDF })).rejects.toThrow(
      "An image part holds application/pdf: send it as a { type: 'file' } part",
    );
    await expect(toContentPart('hi' as never)).rejects.toThrow(TypeError);
  });
});

describe('toContent', () => {
  it('keeps a string, reads each part of a list in order', async () => {
    expect(await toContent('hello')).toBe('hello');
    expect(
      await toContent([
        { type: 'text', text: 'Look' },
        { type: 'image', data: new Blob([PNG]) },
      ]),
    ).toEqual([
      { type: 'text', text: 'Look' },
      { type: 'image', data: b64(PNG), mediaType: 'image/png' },
    ]);
  });
});
