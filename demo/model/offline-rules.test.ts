import { aiMessage, type Message, toolMessage, userMessage } from 'moat-sdk/messages';
import { describe, expect, it } from 'vitest';
import { expressionsIn, numberIn, planTurn, SUGGESTIONS } from './offline-rules';

const plan = (text: string) => planTurn([userMessage(text)]);
const calls = (text: string) => plan(text).toolCalls?.map((c) => [c.name, c.args]);

describe('the offline demo model', () => {
  it('finds the arithmetic in a sentence and numbers written many ways', () => {
    expect(expressionsIn('What is 3 * 12? Also, what is 11 + 49?')).toEqual(['3 * 12', '11 + 49']);
    expect(expressionsIn('(2 + 3) * 4 and 1,000 / 8')).toEqual(['(2 + 3) * 4', '1000 / 8']);
    expect(expressionsIn('in 2026 I turn 40')).toEqual([]);
    expect(numberIn('below 20,000,000')).toBe(20_000_000);
    expect(numberIn('below 2e7')).toBe(20_000_000);
    expect(numberIn('below 3 million')).toBe(3_000_000);
    expect(numberIn('no number')).toBeUndefined();
  });

  it('calls the tool each request needs, several at once when asked several things', () => {
    expect(calls('What is 3 * 12? Also, what is 11 + 49?')).toEqual([
      ['calculator', { expression: '3 * 12' }],
      ['calculator', { expression: '11 + 49' }],
    ]);
    expect(calls('Remember that my favourite tea is sencha')).toEqual([
      ['remember', { title: 'my favourite tea', text: 'my favourite tea is sencha' }],
    ]);
    expect(calls('What do you remember about tea?')).toEqual([['recall', { query: 'tea' }]]);
    expect(calls("What's my favourite tea?")).toEqual([['recall', { query: 'favourite tea' }]]);
    expect(calls('Delete the note my favourite tea')).toEqual([['delete_note', { title: 'my favourite tea' }]]);
    expect(calls('List my notes')).toEqual([['list_notes', {}]]);
    expect(calls('Count the primes below 20,000,000')).toEqual([['count_primes', { n: 20_000_000 }]]);
    expect(calls('Echo slowly: hello there')).toEqual([['slow_echo', { text: 'hello there' }]]);
    expect(calls('Fetch https://example.com/')).toEqual([['fetch_url', { url: 'https://example.com/' }]]);
    expect(calls('Run a busy loop for 600 seconds')).toEqual([['busy_loop', { seconds: 600 }]]);
    expect(calls('Convert 5 km to miles')).toEqual([['convert_units', { value: 5, from: 'km', to: 'miles' }]]);
    expect(calls('What time is it in Tokyo?')).toEqual([['date_time', { timeZone: 'Asia/Tokyo' }]]);
    expect(calls('What is the date?')).toEqual([['date_time', {}]]);
    expect(calls('Run JavaScript: 1 + 1')).toEqual([['run_javascript', { code: '1 + 1' }]]);
    expect(calls('Please run this code:\n```js\nconsole.log(2)\n```')?.[0]?.[0]).toBe('run_javascript');
    expect(calls('Use code to multiply 3 by 12 and convert 42 km to miles')?.[0]?.[1]).toMatchObject({
      code: expect.stringContaining('await tools.calculator'),
    });
    expect(plan('Hello').text).toMatch(/^Hello! I can do arithmetic/);
    expect(plan('Show me a hostile markdown answer').text).toContain('<img src="x" onerror=');
  });

  it('draws a chart of the numbers asked for', () => {
    expect(calls('Draw a chart of 3, 7, 2, 9 and 5')).toEqual([['draw_chart', { values: [3, 7, 2, 9, 5] }]]);
    expect(calls('Plot a graph')).toEqual([['draw_chart', { values: [3, 7, 2, 9, 5] }]]);
  });

  it('tells the type, size and, from the bytes, the width and height of what was attached', () => {
    // A PNG's header: signature, IHDR of 640 × 480.
    const png = new Uint8Array(64);
    png.set([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2, 128, 0, 0, 1, 224,
    ]);
    // A JPEG: SOI, an APP0 segment of 16 bytes, then SOF0 with 300 high × 200 wide.
    const jpeg = new Uint8Array([
      0xff,
      0xd8,
      0xff,
      0xe0,
      0,
      16,
      ...new Array(14).fill(0),
      0xff,
      0xc0,
      0,
      17,
      8,
      1,
      44,
      0,
      200,
      3,
      0,
      0,
      0,
    ]);
    const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
    const turn = planTurn([
      userMessage([
        { type: 'text', text: 'What are these?' },
        { type: 'image', data: b64(png), mediaType: 'image/png' },
        { type: 'image', data: b64(jpeg), mediaType: 'image/jpeg' },
        { type: 'file', data: 'JVBERi0xLjcK', mediaType: 'application/pdf', filename: 'r.pdf' },
      ]),
    ]);
    expect(turn.text).toContain('- an image (image/png), 64 bytes, 640 × 480 pixels');
    expect(turn.text).toContain('- an image (image/jpeg), 33 bytes, 200 × 300 pixels');
    expect(turn.text).toContain('- **r.pdf** (application/pdf), 9 bytes');
    expect(turn.text).toMatch(/^You attached 3 things/);
  });

  it('every suggestion does something other than the fallback', () => {
    for (const { prompt } of SUGGESTIONS) expect(plan(prompt).text ?? '', prompt).not.toMatch(/I follow a script/);
  });

  it('words an answer from the results, errors included', () => {
    const turn = aiMessage({
      toolCalls: [
        { id: 'a', name: 'calculator', args: { expression: '3 * 12' } },
        { id: 'b', name: 'calculator', args: { expression: '11 + 49' } },
        { id: 'c', name: 'fetch_url', args: { url: 'https://example.com/' } },
      ],
    });
    const messages: Message[] = [
      userMessage('…'),
      turn,
      toolMessage({ toolCallId: 'a', name: 'calculator', content: '{"expression":"3 * 12","result":36}' }),
      toolMessage({ toolCallId: 'b', name: 'calculator', content: '{"expression":"11 + 49","result":60}' }),
      toolMessage({ toolCallId: 'c', name: 'fetch_url', content: 'NetworkDeniedError: denied', status: 'error' }),
    ];
    expect(planTurn(messages).text).toBe(
      "3 * 12 = **36**\n\n11 + 49 = **60**\n\nThe request never left the worker: **NetworkDeniedError: denied**\n\nMoat's pool denies tools the network unless the app allows it, so a tool cannot send your data anywhere.",
    );
  });
});
