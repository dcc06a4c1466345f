// A run given a list of parts (the issue's `agent.run([{ type: 'text', … }, { type: 'image', data: file }])`):
// one user message, its files read into base64 before the model is asked.
import { describe, expect, it } from 'vitest';
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';
import { userMessage } from '../messages/constructors';
import { textOf } from '../messages/text-of';
import type { Message } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import { parseInput, readInput } from './input';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n');
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** A model that says what the last user message held, and remembers every request's messages. */
function describingModel(seen: Message[][]) {
  return scriptedModel((messages) => {
    seen.push(messages.map((m) => structuredClone(m)));
    const last = messages.findLast((m) => m.role === 'user');
    const content = last?.content ?? '';
    const kinds = typeof content === 'string' ? [] : content.filter((p) => p.type !== 'text').map((p) => p.type);
    return { text: `${textOf(content)} [${kinds.join(', ')}]` };
  });
}

describe('a list of parts as input', () => {
  it('is one user message: a File read into base64 with its type and name, the text as it is', async () => {
    const seen: Message[][] = [];
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({ model: describingModel(seen), checkpointer });
    const file = new File([PNG], 'pixel.png', { type: 'image/png' });
    const result = await agent.run([
      { type: 'text', text: 'What is in this picture?' },
      { type: 'image', data: file },
    ]);
    const asked = {
      role: 'user',
      content: [
        { type: 'text', text: 'What is in this picture?' },
        { type: 'image', data: b64(PNG), mediaType: 'image/png', filename: 'pixel.png' },
      ],
    };
    expect(seen).toEqual([[asked]]);
    expect(result.text).toBe('What is in this picture? [image]');
    expect(result.messages[0]).toEqual(asked);
    // The thread keeps the part as JSON data, and gives it back as it was.
    expect((await agent.thread(result.threadId))?.messages[0]).toEqual(asked);
  });

  it('takes a PDF as a file part, a Blob and bytes too, and continues a thread', async () => {
    const seen: Message[][] = [];
    const agent = createAgent({ model: describingModel(seen), checkpointer: createMemoryCheckpointer() });
    const first = await agent.run([
      { type: 'text', text: 'Summarise' },
      { type: 'file', data: new Blob([PDF]), mediaType: 'application/pdf', filename: 'q3.pdf' },
    ]);
    expect(first.messages[0]?.content).toEqual([
      { type: 'text', text: 'Summarise' },
      { type: 'file', data: b64(PDF), mediaType: 'application/pdf', filename: 'q3.pdf' },
    ]);
    const second = await agent.run([{ type: 'image', data: PNG }], { threadId: first.threadId });
    expect(second.text).toBe(' [image]');
    expect(seen[1]?.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(seen[1]?.[2]?.content).toEqual([{ type: 'image', data: b64(PNG), mediaType: 'image/png' }]);
  });

  it('an image whose type cannot be told ends the run with UnknownMediaTypeError before the model is asked', async () => {
    const seen: Message[][] = [];
    const agent = createAgent({ model: describingModel(seen) });
    await expect(agent.run([{ type: 'image', data: new TextEncoder().encode('plain text') }])).rejects.toThrow(
      UnknownMediaTypeError,
    );
    expect(seen).toEqual([]);
  });

  it('a list mixing parts and messages is a TypeError; an empty list and a list of messages are as before', async () => {
    await expect(readInput([{ type: 'text', text: 'a' }, userMessage('b')] as never)).rejects.toThrow(
      /a list of messages \(\{ role \}\) or a list of parts \(\{ type \}\), each entry one of them/,
    );
    expect(await readInput([])).toEqual({ messages: [] });
    expect(await readInput([userMessage('b')])).toEqual({ messages: [{ role: 'user', content: 'b' }] });
    expect(await readInput('hi')).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
    expect(() => parseInput([{ type: 'text', text: 'a' }])).toThrow(/readInput/);
  });
});
