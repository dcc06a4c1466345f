import { describe, expect, it } from 'vitest';
import { reviveError, serializeError } from '../errors/serialize-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { type Channel, connect, readMessage, type Shapes } from './channel';
import { answerPage, PageAsks } from './sealed-end';

interface EchoApi {
  echo(value: unknown): unknown;
  fail(): never;
  later(ms: number): Promise<string>;
}

type Told = { t: 'said'; text: string; n: number } | { t: 'gone' };
const SHAPES: Shapes<Told> = { said: { text: 'string', n: 'count' }, gone: {} };

/** A page end and a sealed end over a MessageChannel; what the page was told, and what it could not read. */
function pair(api: object = echoApi()) {
  const { port1, port2 } = new MessageChannel();
  const told: Told[] = [];
  const malformed: TypeError[] = [];
  const channel: Channel<EchoApi> = connect<EchoApi, Told>(port1, {
    shapes: SHAPES,
    message: (m) => told.push(m),
    malformed: (e) => malformed.push(e),
  });
  const receive = answerPage(api, (answer) => port2.postMessage(answer), serializeError);
  port2.addEventListener('message', (event) => receive(event.data));
  port2.start();
  port1.start();
  return { channel, sealed: port2, told, malformed };
}

function echoApi(): EchoApi {
  return {
    echo: (value) => value,
    fail: () => {
      throw new ToolNotFoundError({ toolName: 'wether', available: ['weather'] });
    },
    later: (ms) => new Promise((resolve) => setTimeout(() => resolve('late'), ms)),
  };
}

/** Until `check` holds (each message turn), at most `turns` turns: a bounded wait. */
async function until(check: () => boolean, turns = 200): Promise<void> {
  for (let i = 0; i < turns && !check(); i++) await new Promise((r) => setTimeout(r, 0));
}

const asString = (value: unknown) => {
  if (typeof value !== 'string') throw new TypeError('not a string');
  return value;
};

describe('connect (the page wraps; the sealed side answers)', () => {
  it('asks and reads the answer; what the sealed side threw keeps its class', async () => {
    const { channel } = pair();
    await expect(channel.request((r) => r.echo('hi'), asString)).resolves.toBe('hi');
    await expect(channel.request((r) => r.echo(42), asString)).rejects.toThrow(TypeError);
    const error = await channel.request((r) => r.fail(), asString).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ToolNotFoundError);
    expect((error as ToolNotFoundError).toolName).toBe('wether');
  });

  it('rejects with the time limit, the signal, or the close reason; a late answer is dropped', async () => {
    const { channel } = pair();
    const timeout = new Error('too slow');
    await expect(
      channel.request((r) => r.later(1_000), asString, { timeoutMs: 1, timeout: () => timeout }),
    ).rejects.toBe(timeout);
    const controller = new AbortController();
    const asked = channel.request((r) => r.later(1_000), asString, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(asked).rejects.toThrow('stop');
    const closing = channel.request((r) => r.later(1_000), asString);
    channel.close(new Error('gone'));
    await expect(closing).rejects.toThrow('gone');
    await expect(channel.request((r) => r.echo('x'), asString)).rejects.toThrow('gone');
  });

  it('checks what the sealed side says unasked against its table; the rest is malformed, never thrown', async () => {
    const { sealed, told, malformed } = pair();
    sealed.postMessage({ t: 'said', text: 'a', n: 1 });
    sealed.postMessage({ t: 'said', text: 'a', n: -1 });
    sealed.postMessage({ t: 'said', text: 'a', n: 1, extra: true });
    sealed.postMessage({ t: 'said', text: 'a' });
    sealed.postMessage({ t: 'toString' });
    sealed.postMessage('said');
    sealed.postMessage({ t: 'gone' });
    await until(() => told.length + malformed.length === 7);
    expect(told).toEqual([{ t: 'said', text: 'a', n: 1 }, { t: 'gone' }]);
    expect(malformed.map((e) => e.message)).toEqual([
      "The sealed side sent a 'said' message whose n is not a count",
      "The sealed side sent a 'said' message with a key it does not have",
      "The sealed side sent a 'said' message without its n",
      'The sealed side sent a message of no known type',
      'The sealed side sent a message that is not an object (string)',
    ]);
    expect(malformed.every((e) => e instanceof TypeError)).toBe(true);
  });

  it('runs nothing a hostile side sends: Comlink requests, proxy answers, a thrown __proto__', async () => {
    const { port1, port2 } = new MessageChannel();
    const malformed: TypeError[] = [];
    const channel = connect<EchoApi, Told>(port1, {
      shapes: SHAPES,
      message: () => {},
      malformed: (e) => malformed.push(e),
    });
    port1.start();
    port2.start();
    const page = globalThis as { pwned?: unknown };
    const body = 'globalThis.pwned = 1';
    // Requests to the page, by every path Comlink would walk on an exposed object or a proxy.
    const attacks = [
      { id: 'a1', type: 'GET', path: ['constructor', 'constructor'] },
      { id: 'a2', type: 'SET', path: ['pwned'], value: { type: 'RAW', value: 1 } },
      { id: 'a3', type: 'APPLY', path: ['constructor', 'constructor'], argumentList: [{ type: 'RAW', value: body }] },
      { id: 'a4', type: 'CONSTRUCT', path: ['constructor'], argumentList: [{ type: 'RAW', value: body }] },
      {
        id: 'a5',
        type: 'CONSTRUCT',
        path: ['constructor', 'constructor'],
        argumentList: [{ type: 'RAW', value: body }],
      },
      { id: 'a6', type: 'ENDPOINT' },
    ];
    for (const attack of attacks) port2.postMessage(attack);
    // Answers to the page's own requests: a proxy (a port the hostile side chose) and a throw
    // whose value would set the Error's prototype if assigned onto it.
    const seen: { data: unknown }[] = [];
    port2.addEventListener('message', (event) => {
      const { id } = event.data as { id: string };
      seen.push(event);
      if (seen.length === 1) {
        const { port1: theirs } = new MessageChannel();
        port2.postMessage({ id, type: 'HANDLER', name: 'proxy', value: theirs }, [theirs]);
        port2.postMessage({ id, type: 'RAW', value: 'honest' });
      } else {
        const value = JSON.parse('{"message":"m","__proto__":{"polluted":true,"constructor":1}}');
        port2.postMessage({ id, type: 'HANDLER', name: 'throw', value: { isError: true, value } });
      }
    });
    await expect(channel.request((r) => r.echo('x'), asString)).resolves.toBe('honest');
    const error = await channel.request((r) => r.echo('y'), asString).catch((e: unknown) => e);
    expect(Object.getPrototypeOf(error)).toBe(Error.prototype);
    expect((error as Error).message).toBe('m');
    // Each request, and the proxy answer, is reported: none is a message of the table.
    await until(() => malformed.length === attacks.length + 1);
    expect(malformed).toHaveLength(attacks.length + 1);
    expect(page.pwned).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    // The channel still works.
    expect(seen).toHaveLength(2);
  });
});

describe('one-way requests (Channel.send)', () => {
  it('cost one message: the sealed side does not answer them; an unsendable one says so at once', async () => {
    const { port1, port2 } = new MessageChannel();
    const channel = connect<EchoApi>(port1);
    const seen: unknown[] = [];
    const receive = answerPage(echoApi(), (answer) => port2.postMessage(answer), serializeError, { echo: true });
    port2.addEventListener('message', (event) => {
      seen.push(event.data);
      receive(event.data);
    });
    const answers: unknown[] = [];
    port1.addEventListener('message', (event) => answers.push(event.data));
    port1.start();
    port2.start();
    expect(channel.send((r) => r.echo('one-way'))).toBeUndefined();
    expect(channel.send((r) => r.echo(() => 1))?.name).toBe('DataCloneError');
    // An answered request after it: its answer is the only message back.
    await expect(channel.request((r) => r.later(0), asString)).resolves.toBe('late');
    expect(seen).toHaveLength(2);
    await until(() => answers.length > 0);
    expect(answers).toHaveLength(1);
  });
});

describe('answerPage (the sealed side)', () => {
  it('answers only calls of its own methods: no path is walked', async () => {
    const posted: { id: string; type: string; value: { value: { message: string } } }[] = [];
    const receive = answerPage(echoApi(), (answer) => posted.push(answer as (typeof posted)[number]), serializeError);
    receive({ id: '1', type: 'APPLY', path: ['echo', 'constructor'], argumentList: [] });
    receive({ id: '2', type: 'CONSTRUCT', path: ['echo'], argumentList: [] });
    receive({ id: '3', type: 'APPLY', path: ['toString'], argumentList: [] });
    receive({ id: '4', type: 'APPLY', path: ['echo'], argumentList: [{ type: 'HANDLER', name: 'proxy', value: 1 }] });
    receive({ type: 'APPLY', path: ['echo'], argumentList: [] });
    expect(posted.map((p) => [p.id, p.type, p.value.value.message])).toEqual([
      ['1', 'HANDLER', 'Only calls of the served methods are answered'],
      ['2', 'HANDLER', 'Only calls of the served methods are answered'],
      ['3', 'HANDLER', "No method 'toString' is served"],
      ['4', 'HANDLER', 'Only calls of the served methods are answered'],
    ]);
  });
});

describe('PageAsks (the sealed side asks the page)', () => {
  it('matches each answer to its question; refusals keep their class; time limit and signal', async () => {
    const questions: [number, string][] = [];
    const asks = new PageAsks<string>((id, q) => questions.push([id, q]), reviveError);
    const first = asks.ask('a');
    const second = asks.ask('b');
    asks.answer(2, { value: 'B' });
    asks.answer(1, { error: serializeError(new ToolNotFoundError({ toolName: 'x', available: [] })) });
    asks.answer(1, { value: 'late' });
    await expect(second).resolves.toBe('B');
    await expect(first).rejects.toBeInstanceOf(ToolNotFoundError);
    await expect(asks.ask('c', { timeoutMs: 1 })).rejects.toThrow('did not answer within 1 ms');
    const controller = new AbortController();
    const asked = asks.ask('d', { signal: controller.signal });
    controller.abort(new Error('no more'));
    await expect(asked).rejects.toThrow('no more');
    expect(questions.map(([, q]) => q)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('a question that cannot be posted rejects', async () => {
    const asks = new PageAsks<string>(() => {
      throw new DOMException('cannot clone', 'DataCloneError');
    }, reviveError);
    await expect(asks.ask('x')).rejects.toThrow('cannot clone');
  });
});

describe('readMessage', () => {
  it('reads own keys only', () => {
    expect(readMessage(SHAPES, JSON.parse('{"t":"gone","__proto__":{}}'))).toBe(
      "a 'gone' message with a key it does not have",
    );
  });
});
