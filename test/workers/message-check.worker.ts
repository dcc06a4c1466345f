/// <reference lib="webworker" />
// Reads a message the page sent, as a tool worker would, and answers with the parsed message or
// with the typed error as a serialized envelope.
import { serializeError } from '../../src/errors/serialize-error';
import { messageFromJSON } from '../../src/messages/message-json';

self.onmessage = (event: MessageEvent<unknown>) => {
  try {
    self.postMessage({ ok: true, message: messageFromJSON(event.data) });
  } catch (error) {
    self.postMessage({ ok: false, error: serializeError(error) });
  }
};
