// What a hostile sealed side posts to the page in Comlink's own shapes: each would run or change
// something there, had the page exposed an object. The MCP client's and the code sandbox's
// hostile tests post them (the pool's hostile worker has its own, in its bundle).

/** The code an attack would run on the page: the tests check that `pwned` stays unset. */
export const BODY = 'globalThis.pwned = 1';

/**
 * Each attack: its name, and the text of an expression (it stands alone in a worker or a script)
 * that makes the message to post, or `[message, transfer]`. It may use `request` (the page's
 * request being answered) and `follow` (what to do with a port handed back).
 */
export const COMLINK_ATTACKS: [name: string, message: string][] = [
  ['GET constructor.constructor', `{ id: 'a', type: 'GET', path: ['constructor', 'constructor'] }`],
  [
    'SET through constructor.prototype',
    `{ id: 'a', type: 'SET', path: ['constructor', 'prototype', 'polluted'], value: { type: 'RAW', value: true } }`,
  ],
  ['SET a global', `{ id: 'a', type: 'SET', path: ['pwned'], value: { type: 'RAW', value: 1 } }`],
  [
    'APPLY constructor.constructor',
    `{ id: 'a', type: 'APPLY', path: ['constructor', 'constructor'], argumentList: [{ type: 'RAW', value: '${BODY}' }] }`,
  ],
  [
    'CONSTRUCT constructor.constructor',
    `{ id: 'a', type: 'CONSTRUCT', path: ['constructor', 'constructor'], argumentList: [{ type: 'RAW', value: '${BODY}' }] }`,
  ],
  ['ENDPOINT', `{ id: 'a', type: 'ENDPOINT' }`],
  [
    "a 'proxy' answer to the page's request",
    `(() => { const { port1, port2 } = new MessageChannel(); port1.onmessage = follow; return [{ id: request.id, type: 'HANDLER', name: 'proxy', value: port2 }, [port2]]; })()`,
  ],
  [
    "a 'throw' answer with an own __proto__",
    `{ id: request.id, type: 'HANDLER', name: 'throw', value: { isError: true, value: JSON.parse('{"message":"m","__proto__":{"polluted":true}}') } }`,
  ],
];
