import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  base64FromBytes,
  dataURL,
  imageSize,
  isBase64,
  mediaDataProblem,
  readMediaData,
  sniffBase64,
  sniffMediaType,
  textFromBase64,
} from './media-data';

const bytes = (...b: number[]) => new Uint8Array([...b, 0, 0, 0, 0, 0, 0, 0, 0]);
const SIGNATURES: [string, Uint8Array][] = [
  ['image/png', bytes(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)],
  ['image/jpeg', bytes(0xff, 0xd8, 0xff, 0xe0)],
  ['image/gif', new TextEncoder().encode('GIF89a\x01\x00')],
  ['image/gif', new TextEncoder().encode('GIF87a\x01\x00')],
  ['image/webp', new TextEncoder().encode('RIFF\x10\x00\x00\x00WEBPVP8 ')],
  ['application/pdf', new TextEncoder().encode('%PDF-1.7\n')],
];

describe('sniffMediaType', () => {
  it.each(SIGNATURES)('knows %s by its first bytes, as bytes and as base64', (type, head) => {
    expect(sniffMediaType(head)).toBe(type);
    expect(sniffBase64(base64FromBytes(head))).toBe(type);
  });

  it('knows nothing else: text, a RIFF that is not WebP, too few bytes, broken base64', () => {
    expect(sniffMediaType(new TextEncoder().encode('hello world'))).toBeUndefined();
    expect(sniffMediaType(new TextEncoder().encode('RIFF\x10\x00\x00\x00WAVEfmt '))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array([0x89, 0x50]))).toBeUndefined();
    expect(sniffMediaType(new Uint8Array([]))).toBeUndefined();
    expect(sniffBase64('!!!!')).toBeUndefined();
  });
});

describe('base64FromBytes', () => {
  it('matches the platform encoder for any bytes, megabytes included', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        expect(base64FromBytes(b)).toBe(Buffer.from(b).toString('base64'));
      }),
    );
    const big = new Uint8Array(3_000_000).map((_, i) => i * 7);
    expect(base64FromBytes(big)).toBe(Buffer.from(big).toString('base64'));
  });

  it('textFromBase64 reads UTF-8 back', () => {
    expect(textFromBase64(Buffer.from('héllo ✓').toString('base64'))).toBe('héllo ✓');
  });
});

describe('isBase64', () => {
  const RULE = /^[A-Za-z0-9+/]+={0,2}$/;
  it('says what /^[A-Za-z0-9+/]+={0,2}$/ says, for any text of base64 characters and a few others', () => {
    const char = fc.constantFrom(...'AZaz09+/==-_ .\n'.split(''));
    fc.assert(
      fc.property(fc.array(char, { maxLength: 12 }), (chars) => {
        const text = chars.join('');
        expect(isBase64(text)).toBe(RULE.test(text));
      }),
      { numRuns: 5_000 },
    );
  });

  it('takes real base64, megabytes too, and refuses one stray character in it', () => {
    const data = base64FromBytes(new Uint8Array(3_000_001).map((_, i) => i * 7));
    expect(isBase64(data)).toBe(true);
    expect(isBase64(`${data.slice(0, 1_000_000)}!${data.slice(1_000_001)}`)).toBe(false);
    expect(isBase64(`${data}===`)).toBe(false);
  });
});

describe('readMediaData / mediaDataProblem', () => {
  it('reads a data: URL into base64 and its type, an http(s) URL as a URL, anything else as base64', () => {
    expect(readMediaData('data:image/PNG;base64,iVBO')).toEqual({
      kind: 'base64',
      base64: 'iVBO',
      mediaType: 'image/png',
    });
    expect(readMediaData('data:image/png;name=a.png;base64,iVBO', 'image/webp')).toEqual({
      kind: 'base64',
      base64: 'iVBO',
      mediaType: 'image/webp',
    });
    expect(readMediaData('data:;base64,iVBO').kind === 'base64' && readMediaData('data:;base64,iVBO')).toMatchObject({
      mediaType: undefined,
    });
    expect(readMediaData('https://example.com/a.png')).toEqual({ kind: 'url', url: 'https://example.com/a.png' });
    expect(readMediaData('iVBO', 'image/png')).toEqual({ kind: 'base64', base64: 'iVBO', mediaType: 'image/png' });
    expect(dataURL('image/png', 'iVBO')).toBe('data:image/png;base64,iVBO');
  });

  it.each([
    ['iVBORw0KGgo=', undefined],
    ['https://example.com/a.png?x=1', undefined],
    ['HTTP://EXAMPLE.COM/A.PNG', undefined],
    ['data:application/pdf;base64,JVBERi0=', undefined],
    ['', 'is empty'],
    ['iVBO Rw0K', 'is neither base64 nor an http(s) or data: URL'],
    ['blob:https://x/1', 'is a URL Moat cannot send ("blob:"): use base64, an http(s) URL or a base64 data: URL'],
    ['file:///etc/passwd', 'is a URL Moat cannot send ("file:"): use base64, an http(s) URL or a base64 data: URL'],
    ['data:text/plain,hello', 'is a data: URL that is not base64 (data:<type>;base64,<data>)'],
    ['data:image/png;base64,not base64', 'is a data: URL whose payload is not base64'],
  ])('%s: %s', (data, problem) => {
    expect(mediaDataProblem(data)).toBe(problem);
  });
});

describe('imageSize', () => {
  const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64');
  it("reads a PNG's, a GIF's and a JPEG's width and height from their first bytes", () => {
    const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2, 128];
    expect(imageSize(b64([...png, 0, 0, 1, 224, 8, 6, 0, 0, 0]))).toEqual({ width: 640, height: 480 });
    expect(imageSize(b64([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 10, 0, 20, 0, 0, 0]))).toEqual({ width: 10, height: 20 });
    // SOI, an APP0 segment of 16 bytes, then SOF2 (progressive): 300 high, 200 wide.
    const jpeg = [0xff, 0xd8, 0xff, 0xe0, 0, 16, ...new Array(14).fill(0), 0xff, 0xc2, 0, 17, 8, 1, 44, 0, 200, 3];
    expect(imageSize(b64([...jpeg, 0, 0, 0, 0]))).toEqual({ width: 200, height: 300 });
  });

  it('knows nothing of other bytes, a broken JPEG or bad base64', () => {
    expect(imageSize(b64([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50]))).toBeUndefined();
    expect(imageSize(b64([0xff, 0xd8, 0x00, 0x00, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined();
    expect(imageSize('not base64!')).toBeUndefined();
  });
});
