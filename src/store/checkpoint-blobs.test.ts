import { describe, expect, it } from 'vitest';
import { AttachmentTooLargeError } from '../errors/attachment-too-large-error';
import type { JSONValue } from '../json/json-value';
import { DEFAULT_ATTACHMENT_LIMITS, holdsMedia, newBlobs, putBackMedia, takeOutMedia } from './checkpoint-blobs';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjcKJeLjz9MK';
const messages = (): JSONValue[] => [
  { role: 'system', content: 'Be brief.' },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'Two of the same, a PDF, a URL' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'image', data: `data:image/png;base64,${PNG}` },
      { type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'r.pdf' },
      { type: 'image', data: 'https://example.com/cat.jpg' },
    ],
  },
  { role: 'tool', toolCallId: 'c', name: 'chart', status: 'success', content: [{ type: 'image', data: PNG }] },
];

describe('images and files kept beside a checkpoint', () => {
  it('takes each base64 out as a reference, one blob per content; puts it back as it was read', async () => {
    const before = messages();
    expect(holdsMedia(before)).toBe(true);
    expect(holdsMedia([{ role: 'user', content: [{ type: 'image', data: 'https://example.com/cat.jpg' }] }])).toBe(
      false,
    );
    const { messages: stored, blobs } = await takeOutMedia('t', before, DEFAULT_ATTACHMENT_LIMITS);
    expect(before).toEqual(messages()); // the caller's messages are left alone
    const json = JSON.stringify(stored);
    expect(json).not.toContain(PNG);
    expect(json).not.toContain(PDF);
    expect(json).toContain('https://example.com/cat.jpg');
    expect(json.match(/moat-blob:[0-9a-f]{64}/g)).toHaveLength(4);
    // The PNG three times (bare, data: URL, in the tool's result) is one blob; the PDF another.
    expect(blobs.map((b) => [b.blob.type, b.size])).toEqual([
      ['image/png', 70],
      ['application/pdf', 15],
    ]);
    const byId = new Map(blobs.map((b) => [b.id, b.blob]));
    const back = await putBackMedia(stored, async (id) => byId.get(id));
    const user = (back[1] as { content: { data: string }[] }).content;
    expect(user.map((p) => p.data)).toEqual([undefined, PNG, PNG, PDF, 'https://example.com/cat.jpg']);
    await expect(putBackMedia(stored, async () => undefined)).rejects.toThrow(/is not stored/);
  });

  it('stores nothing the thread has; refuses an attachment or a thread past its limit', async () => {
    const { blobs } = await takeOutMedia('t', messages(), DEFAULT_ATTACHMENT_LIMITS);
    const known = new Map(blobs.map((b) => [b.id, b.size]));
    expect(newBlobs('t', blobs, known, DEFAULT_ATTACHMENT_LIMITS)).toEqual([]);
    expect(newBlobs('t', blobs, new Map(), DEFAULT_ATTACHMENT_LIMITS)).toEqual(blobs);
    const one = takeOutMedia('t', messages(), { maxAttachmentBytes: 50, maxThreadBytes: 1000 });
    await expect(one).rejects.toThrow(AttachmentTooLargeError);
    await expect(one).rejects.toMatchObject({ of: 'attachment', bytes: 70, limit: 50 });
    const limits = { maxAttachmentBytes: 100, maxThreadBytes: 100 };
    expect(() => newBlobs('t', blobs, new Map([['old', 30]]), limits)).toThrow(
      /Thread t's images and files would take 115 bytes, more than its 100 bytes \(maxThreadBytes\)/,
    );
    // What the thread has already counts, but adding nothing new is never refused.
    expect(newBlobs('t', blobs, new Map([...known, ['old', 500]]), limits)).toEqual([]);
  });
});
