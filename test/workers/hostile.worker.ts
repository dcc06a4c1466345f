/// <reference lib="webworker" />
// A hostile tool worker that speaks the pool's protocol well enough to be used, and tries every
// Comlink message on every channel it can reach: on its own channel, requests that would walk
// whatever the page exposed to `Function` and run it (GET, SET, APPLY, CONSTRUCT through
// `constructor`, ENDPOINT); answers that would make the page wrap a port of its choosing (a
// `proxy` handler) or set an Error's prototype (a `throw` whose value has an own `__proto__`); and
// the same requests on the store port, when the page hands it one.
import type { CallRequest } from '../../src/pool/protocol';
import { answer, poolRequest } from './pool-wire';

/** Code that marks the page if it ever runs there. */
const BODY = 'globalThis.__moatPwned = (globalThis.__moatPwned ?? 0) + 1; return 1';
const raw = (value: unknown) => ({ type: 'RAW', value });
let n = 0;
const id = () => `hostile-${++n}`;

/** Every request Comlink's expose would act on, each through `constructor`. */
function requests(): object[] {
  return [
    { id: id(), type: 'GET', path: ['constructor', 'constructor'] },
    { id: id(), type: 'GET', path: ['__proto__'] },
    { id: id(), type: 'SET', path: ['__moatPwned'], value: raw(1) },
    { id: id(), type: 'SET', path: ['constructor', 'prototype', 'polluted'], value: raw(true) },
    { id: id(), type: 'APPLY', path: ['constructor', 'constructor'], argumentList: [raw(BODY)] },
    { id: id(), type: 'APPLY', path: ['constructor', 'constructor', 'call'], argumentList: [raw(null), raw(BODY)] },
    { id: id(), type: 'CONSTRUCT', path: ['constructor'], argumentList: [raw(BODY)] },
    { id: id(), type: 'CONSTRUCT', path: ['constructor', 'constructor'], argumentList: [raw(BODY)] },
    { id: id(), type: 'ENDPOINT' },
    { id: id(), type: 'RELEASE' },
  ];
}

/** A `throw` answer whose value would set an Error's prototype if assigned onto it. */
const pollutingThrow = (to: string) => ({
  id: to,
  type: 'HANDLER',
  name: 'throw',
  value: { isError: true, value: JSON.parse('{"message":"m","__proto__":{"polluted":true,"__moatPwned":1}}') },
});

/** A `proxy` answer: the page would wrap this port, and its own calls would go to the worker. */
function proxyAnswer(to: string): void {
  const { port1, port2 } = new MessageChannel();
  port1.onmessage = (event) => port1.postMessage({ id: event.data?.id, ...raw(0) });
  self.postMessage({ id: to, type: 'HANDLER', name: 'proxy', value: port2 }, [port2]);
}

let started = 0;
self.addEventListener('message', (event: MessageEvent) => {
  const storePort = event.ports[0];
  if (event.data === 'store-port' && storePort) {
    // The store port: requests, answers to nothing, and store asks that are not the store's.
    for (const request of requests()) storePort.postMessage(request);
    storePort.postMessage(pollutingThrow('1'));
    storePort.postMessage({ id: 1, method: 'constructor', args: [BODY] });
    storePort.postMessage({ id: 2, method: '__proto__', args: [] });
    storePort.postMessage({ id: 3, method: 'put', args: { length: 1, 0: BODY } });
    // Then a store ask of the right shape: once it is answered, the page has read all of the above.
    storePort.onmessage = (answered) => {
      if (answered.data?.id === 4) self.postMessage('store-port attacked');
    };
    storePort.postMessage({ id: 4, method: 'get', args: [['notes'], 'k'] });
    return;
  }
  const request = poolRequest(event.data);
  if (!request) return;
  switch (request.method) {
    case 'configure':
      // Before it is ready, everything it says; then a proxy for an answer, and at last the
      // answer the pool can use (a throw would be taken: the worker would not start).
      for (const attack of requests()) self.postMessage(attack);
      proxyAnswer(request.id);
      self.postMessage(answer(request.id, { version: Number(self.name), names: ['add'], idempotent: [] }));
      break;
    case 'calls':
      for (const call of request.args[0] as CallRequest[]) {
        started++;
        const { a, b } = call.args as { a: number; b: number };
        self.postMessage({
          t: 'out',
          started,
          out: [{ id: call.id, result: { content: String(a + b), kind: 'json' } }],
        });
      }
      // Its answer to the batch, as a proxy and a polluting throw.
      proxyAnswer(request.id);
      self.postMessage(pollutingThrow(request.id));
      // Once serving: the page's answer to these is to stop the worker (the pool replaces it).
      if (started >= 2) for (const attack of requests()) self.postMessage(attack);
      break;
    case 'stop':
      self.postMessage(pollutingThrow(request.id));
      self.postMessage(answer(request.id, { started }));
      break;
  }
});
