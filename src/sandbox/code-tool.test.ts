import { describe, expect, it } from 'vitest';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolSource } from '../invoker/types';
import { type CodeSandbox, createCodeSandbox } from './code-sandbox';
import { type CodeArtifact, codeTool, NESTED_CONTENT_CHARS, signatureOf } from './code-tool';

describe('codeTool in Node (its description; nothing runs)', () => {
  it('writes a JSON Schema as a call signature', () => {
    expect(
      signatureOf({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'integer' } }, required: ['a'] }),
    ).toBe('{ a: number, b?: number }');
    expect(
      signatureOf({
        type: 'object',
        properties: { tags: { type: 'array', items: { type: 'string' } }, mode: { enum: ['fast', 'slow'] } },
        required: ['tags', 'mode'],
      }),
    ).toBe('{ tags: string[], mode: "fast" | "slow" }');
    expect(signatureOf({ type: 'object', properties: {} })).toBe('');
  });

  it('lists only the tools it may call, and is accepted by a ToolInvoker as an inline tool', async () => {
    const sandbox = createCodeSandbox();
    const tool = codeTool(sandbox, { tools: ['add'], name: 'code' });
    const spec = tool.describe([
      { name: 'add', description: 'Add.', inputSchema: { type: 'object', properties: { a: { type: 'number' } } } },
      { name: 'secret', description: 'Not for code.', inputSchema: { type: 'object' } },
    ]);
    expect(spec.name).toBe('code');
    expect(spec.description).toContain('- `await tools.add({ a?: number })`: Add.');
    expect(spec.description).not.toContain('secret');
    const invoker = new ToolInvoker({ inlineTools: [tool] });
    expect((await invoker.specs()).map((s) => [s.name, s.isolated])).toEqual([['code', false]]);
    expect(() => codeTool({} as never)).toThrow(/codeTool takes a code sandbox/);
    expect(() => new ToolInvoker({ inlineTools: [{ kind: 'page-tool' } as never] })).toThrow(
      /Expected inline tools made by defineTool\(\) or codeTool\(\)/,
    );
  });

  it("keeps the first NESTED_CONTENT_CHARS of each call's text in its artifact, saying how long it was; the script gets it whole", async () => {
    // The artifact kept every result whole: a script looping over a tool of a few MiB made an
    // artifact of all of them, kept in the thread and drawn by the chat.
    const long = 'x'.repeat(100_000);
    const source: ToolSource = {
      kind: 'tool-source',
      name: 'test source',
      specs: async () => [{ name: 'long', description: 'long', inputSchema: { type: 'object' } }],
      call: async () => ({ content: long }),
      onChange: () => () => {},
    };
    // A sandbox whose "script" calls the tool twice and returns the length it got.
    const sandbox = {
      run: async (_code: string, { tools }: { tools: { call: (n: string, a: object) => Promise<unknown> } }) => {
        const got = (await tools.call('long', {})) as string;
        await tools.call('long', {});
        return { value: got.length, logs: [] };
      },
    } as unknown as CodeSandbox;
    const invoker = new ToolInvoker({ tools: [source], inlineTools: [codeTool(sandbox, { tools: ['long'] })] });
    const { messages } = await invoker.run([{ id: 'c', name: 'run_javascript', args: { code: '…' } }]);
    expect(messages[0]?.content).toBe('Result: 100000');
    const { calls } = (messages[0] as { artifact: CodeArtifact }).artifact;
    expect(calls.map((c) => c.toolCallId)).toEqual(['c.1', 'c.2']);
    for (const call of calls) {
      expect(call.content).toBe(`${long.slice(0, NESTED_CONTENT_CHARS)}… (100,000 characters in all)`);
      expect(call.ok).toBe(true);
    }
  });
});
