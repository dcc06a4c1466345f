// Images and files through the agent in Chromium: a person's attachments and a sealed worker
// tool's drawing, over every model client against the wire-protocol server (which checks each
// provider's parts as the provider does).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { modelClients } from '../../test/model-clients';
import { addScenario, requestsOf } from '../../test/model-server/scenarios';
import toolsUrl from '../../test/workers/tools.worker.ts?worker&url';
import { base64FromBytes } from '../messages/media-data';
import type { ToolMessage } from '../messages/types';
import { createWorkerPool, type WorkerPool } from '../pool/worker-pool';
import { createAgent } from './agent';

const url = inject('modelServerUrl');
const KEY = 'browser-key-42';
const clients = modelClients(url, KEY);

async function pngFile(): Promise<File> {
  const canvas = new OffscreenCanvas(3, 2);
  (canvas.getContext('2d') as OffscreenCanvasRenderingContext2D).fillRect(0, 0, 3, 2);
  return new File([await canvas.convertToBlob({ type: 'image/png' })], 'dot.png', { type: 'image/png' });
}
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

describe.each(Object.keys(clients))('images and files through the agent over %s', (name) => {
  const make = clients[name] as (typeof clients)[string];
  let pool: WorkerPool;
  beforeAll(() => {
    pool = createWorkerPool({ worker: toolsUrl, size: 1 });
  });
  afterAll(() => pool.close());

  it("sends a person's image and PDF, then a sealed tool's drawing, each as the provider takes it", async () => {
    const id = await addScenario(
      url,
      {
        ...(name === 'ollama' ? {} : { apiKey: KEY }),
        delayMs: 1,
        turns: [{ toolCalls: [{ name: 'draw', args: { size: 4 } }] }, { text: 'Saw {{results}}' }],
      },
      `media-${name}`,
    );
    const png = await pngFile();
    const attached = [
      { type: 'text' as const, text: 'Draw me one like these' },
      { type: 'image' as const, data: png },
      // Ollama takes no documents (an UnsupportedContentError: see models.test.ts).
      ...(name === 'ollama'
        ? []
        : [{ type: 'file' as const, data: new File([PDF], 'note.pdf', { type: 'application/pdf' }) }]),
    ];
    const agent = createAgent({ model: make(id), pool });
    const result = await agent.run(attached, { threadId: `media-${name}` });
    expect(result.text).toMatch(/^Saw A red square of 4 px/);

    const [first, second] = await requestsOf(url, id);
    const sent = JSON.stringify(first?.body);
    expect(sent).toContain(base64FromBytes(new Uint8Array(await png.arrayBuffer())));
    if (name !== 'ollama') expect(sent).toContain(base64FromBytes(PDF));
    // The drawing went with the tool's result, in the next request.
    const thread = await agent.thread(`media-${name}`);
    const tool = thread?.messages.find((m): m is ToolMessage => m.role === 'tool');
    const drawn = (tool?.content ?? []) as { data?: string }[];
    const image = drawn.find((p) => p.data)?.data as string;
    expect(image).toMatch(/^iVBORw0KGgo/);
    expect(JSON.stringify(second?.body)).toContain(image);
  });
});
