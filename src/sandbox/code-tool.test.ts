import { describe, expect, it } from 'vitest';
import { ToolInvoker } from '../invoker/tool-invoker';
import { createCodeSandbox } from './code-sandbox';
import { codeTool, signatureOf } from './code-tool';

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
});
