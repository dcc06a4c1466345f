// The local model on a page that is not cross-origin isolated (the 'browser-plain' project: a plain
// static host): no shared memory, so one thread, and it says so; inference runs the same.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { expect, it } from 'vitest';
import { localModel } from '../src/local/local-model';
import { userMessage } from '../src/messages/constructors';
import { tinyGGUF } from './tiny-gguf';

it('runs single-threaded on a page without cross-origin isolation, and says so', async () => {
  expect(crossOriginIsolated).toBe(false);
  const model = localModel({ model: new Blob([tinyGGUF()]), wasmUrl, contextSize: 512 });
  try {
    expect(await model.load()).toMatchObject({ threads: 1, multiThreaded: false });
    const stream = model.stream({ messages: [userMessage('Hi')], maxTokens: 5 });
    const deltas: string[] = [];
    for await (const part of stream) if (part.type === 'text-delta') deltas.push(part.delta);
    expect(stream.message().usage?.outputTokens).toBe(5);
    expect(deltas.join('')).toBe(stream.message().content);
  } finally {
    await model.unload();
  }
});

it('is asked for threads it cannot have: it runs on one', async () => {
  const model = localModel({ model: new Blob([tinyGGUF()]), wasmUrl, contextSize: 512, threads: 4 });
  try {
    expect(await model.load()).toMatchObject({ threads: 1, multiThreaded: false });
  } finally {
    await model.unload();
  }
});
