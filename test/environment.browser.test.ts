// Proves the browser project runs in real Chromium, with real Workers and IndexedDB, and that a
// typed error survives a real postMessage through the envelope.
import { describe, expect, it } from 'vitest';
import { MessageValidationError } from '../src/errors/message-validation-error';
import { MoatError } from '../src/errors/moat-error';
import { reviveError, type SerializedError } from '../src/errors/serialize-error';
import { aiMessage } from '../src/messages/constructors';
import { messageFromJSON, messageToJSON } from '../src/messages/message-json';

type Reply = { ok: true; message: unknown } | { ok: false; error: SerializedError };

function ask(worker: Worker, data: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<Reply>) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(data);
  });
}

const ai = aiMessage({
  content: 'Checking.',
  toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }],
  stopReason: 'tool-calls',
});

describe('the browser test environment', () => {
  it('is Chromium with Worker and IndexedDB', () => {
    expect(navigator.userAgent).toMatch(/Chrome\//);
    expect(typeof Worker).toBe('function');
    expect(typeof indexedDB.open).toBe('function');
  });

  it('sends a message to a module worker and a typed error back', async () => {
    const worker = new Worker(new URL('./workers/message-check.worker.ts', import.meta.url), { type: 'module' });
    try {
      const good = await ask(worker, messageToJSON(ai));
      expect(good).toEqual({ ok: true, message: ai });

      const bad = await ask(worker, { role: 'assistant', content: 1, toolCalls: [], invalidToolCalls: [] });
      expect(bad.ok).toBe(false);
      if (bad.ok) return;
      const error = reviveError(bad.error);
      expect(error).toBeInstanceOf(MessageValidationError);
      expect(MoatError.isInstance(error)).toBe(true);
      expect(MessageValidationError.isInstance(bad.error)).toBe(true);
      expect((error as MessageValidationError).issues[0]?.path).toEqual(['content']);
      expect(error.message).toMatch(/^Invalid message: content: /);
    } finally {
      worker.terminate();
    }
  });

  it('stores a message in IndexedDB and reads it back', async () => {
    const name = `moat-env-${crypto.randomUUID()}`;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open(name, 1);
      request.onupgradeneeded = () => request.result.createObjectStore('messages');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const roundTrip = (mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest) =>
      new Promise<unknown>((resolve, reject) => {
        const request = act(db.transaction('messages', mode).objectStore('messages'));
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
    try {
      await roundTrip('readwrite', (store) => store.put(messageToJSON(ai), 'm1'));
      expect(messageFromJSON(await roundTrip('readonly', (store) => store.get('m1')))).toEqual(ai);
    } finally {
      db.close();
      indexedDB.deleteDatabase(name);
    }
  });
});
