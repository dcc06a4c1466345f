import { describe, expect, it } from 'vitest';
import { toOutcome, toSpecs } from './mcp-tools';
import type { McpTool } from './protocol';

const tool = (name: string, more: Partial<McpTool> = {}): McpTool => ({
  name,
  description: `${name} it`,
  inputSchema: { type: 'object', properties: {} },
  ...more,
});

describe('MCP tools as specs', () => {
  it('asks for approval unless the server says the tool only reads or destroys nothing (the spec defaults)', () => {
    const { specs } = toSpecs([
      tool('plain'),
      tool('reader', { annotations: { readOnlyHint: true } }),
      tool('gentle', { annotations: { destructiveHint: false } }),
      tool('wrecker', { annotations: { readOnlyHint: false, destructiveHint: true } }),
    ]);
    expect(Object.fromEntries(specs.map((s) => [s.name, s.needsApproval ?? false]))).toEqual({
      plain: true,
      reader: false,
      gentle: false,
      wrecker: true,
    });
  });

  it("lets the page decide over a remote server's hints: a tool it names asks, whatever the server says", () => {
    const tools = [
      tool('plain'),
      tool('reader', { annotations: { readOnlyHint: true } }),
      tool('gentle', { annotations: { destructiveHint: false } }),
    ];
    const asks = (approval?: boolean | string[]) =>
      Object.fromEntries(
        toSpecs(tools, undefined, new Map(), approval).specs.map((s) => [s.name, s.needsApproval ?? false]),
      );
    // A server that says its 'delete everything' only reads is believed only where the page lets it.
    expect(asks(['reader'])).toEqual({ plain: true, reader: true, gentle: false });
    expect(asks(true)).toEqual({ plain: true, reader: true, gentle: true });
    expect(asks(false)).toEqual({ plain: false, reader: false, gentle: false });
  });

  it('makes every name one the providers take, unique, and remembers the server’s', () => {
    const { specs, names } = toSpecs([tool('files.read'), tool('files_read'), tool('x'.repeat(80))]);
    expect(specs.map((s) => s.name)).toEqual(['files_read', 'files_read_2', 'x'.repeat(64)]);
    expect(names.get('files_read')).toBe('files.read');
    expect(names.get('files_read_2')).toBe('files_read');
  });

  it('keeps each name across list changes: a name never comes to mean another tool', () => {
    const given = new Map<string, string>();
    const first = toSpecs([tool('files.read'), tool('files:read')], undefined, given);
    expect([...first.names]).toEqual([
      ['files_read', 'files.read'],
      ['files_read_2', 'files:read'],
    ]);
    // files.read gone, a tool really called files_read added: files:read keeps its name, and
    // files_read (which meant files.read) is not given to anyone else.
    const second = toSpecs([tool('files:read'), tool('files_read')], undefined, given);
    expect([...second.names]).toEqual([
      ['files_read_2', 'files:read'],
      ['files_read_3', 'files_read'],
    ]);
    expect(second.names.has('files_read')).toBe(false);
    // Back again, files.read has its old name.
    expect(toSpecs([tool('files.read')], undefined, given).names.get('files_read')).toBe('files.read');
  });

  it('offers only the allowed tools, by name or by test', () => {
    const tools = [tool('a'), tool('b', { annotations: { readOnlyHint: true } })];
    expect(toSpecs(tools, ['b']).specs.map((s) => s.name)).toEqual(['b']);
    expect(toSpecs(tools, (t) => t.annotations?.readOnlyHint === true).specs.map((s) => s.name)).toEqual(['b']);
  });

  it('keeps the schemas, adds the object type a server left out, and skips a tool no provider takes', () => {
    const { specs, skipped } = toSpecs([
      tool('typed', { inputSchema: { properties: { q: { type: 'string' } } }, outputSchema: { type: 'object' } }),
      tool('listy', { inputSchema: { type: 'array' } }),
    ]);
    expect(specs).toEqual([
      {
        name: 'typed',
        description: 'typed it',
        inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
        outputSchema: { type: 'object' },
        needsApproval: true,
      },
    ]);
    expect(skipped).toEqual([{ name: 'listy', reason: expect.stringMatching(/must describe an object/) }]);
  });
});

describe('MCP results as outcomes', () => {
  it('joins text blocks; isError makes an error the model reads', () => {
    expect(
      toOutcome({
        content: [
          { type: 'text', text: 'one' },
          { type: 'text', text: 'two' },
        ],
      }),
    ).toEqual({ content: 'one\n\ntwo' });
    expect(toOutcome({ content: [{ type: 'text', text: 'broke' }], isError: true })).toEqual({
      content: 'broke',
      status: 'error',
    });
  });

  it('gives structured content as JSON when the text says the same or nothing, and keeps text of its own', () => {
    expect(toOutcome({ content: [{ type: 'text', text: '{ "sum": 5 }' }], structuredContent: { sum: 5 } })).toEqual({
      content: '{"sum":5}',
      kind: 'json',
    });
    expect(toOutcome({ structuredContent: { sum: 5 } })).toEqual({ content: '{"sum":5}', kind: 'json' });
    expect(toOutcome({ content: [{ type: 'text', text: 'five' }], structuredContent: { sum: 5 } })).toEqual({
      content: 'five',
      artifact: { sum: 5 },
    });
  });

  it('passes images and PDF or image resources as media, and describes what a model cannot take', () => {
    const outcome = toOutcome({
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'resource', resource: { uri: 'file:///docs/a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
        { type: 'resource', resource: { uri: 'test://notes/1', mimeType: 'text/plain', text: 'note one' } },
        { type: 'resource', resource: { uri: 'test://bin', mimeType: 'application/zip', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'test://big', name: 'big', mimeType: 'text/csv', description: 'a table' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
    });
    expect(outcome.media).toEqual([
      { type: 'image', data: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'a.pdf' },
    ]);
    expect(outcome.content.split('\n\n')).toEqual([
      'look',
      '[resource test://notes/1 (text/plain)]\nnote one',
      '[resource test://bin (application/zip)] 3 bytes of binary data, not shown',
      '[resource link: big test://big (text/csv)] a table',
      '[audio (audio/wav), not shown: models here take no audio]',
    ]);
  });
});
