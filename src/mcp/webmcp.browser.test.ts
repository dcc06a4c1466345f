/**
 * WebMCP both ways. The test plays "the browser's agent" through `document.modelContext` (the
 * polyfill's where this Chromium has none of its own; the 'webmcp-native' project runs the same
 * file with Chromium's own, behind its WebMCP flag). The test installs the polyfill as an app
 * does: Moat never imports it (see webmcp.test.ts).
 */
import { initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import toolsUrl from '../../test/workers/webmcp-tools.worker.ts?worker&url';
import { createAgent } from '../agent/agent';
import { scriptedModel } from '../models/scripted-model';
import { createWorkerPool } from '../pool/worker-pool';
import { exposeTools, pageTools, UNTRUSTED } from './webmcp';

interface Registered {
  name: string;
  annotations?: { readOnlyHint?: boolean };
}
interface Context extends EventTarget {
  registerTool(tool: object, options?: { signal?: AbortSignal }): Promise<void>;
  getTools(): Promise<Registered[]>;
  executeTool(tool: Registered, args: unknown): Promise<string | null>;
  __isWebMCPPolyfill?: boolean;
}

const context = () => (document as unknown as { modelContext: Context }).modelContext;
/** The browser's agent calls a tool: JSON text for the polyfill, an object for Chromium's own. */
async function agentCalls(name: string, args: Record<string, unknown>): Promise<string | null> {
  const tool = (await context().getTools()).find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return context().executeTool(tool, context().__isWebMCPPolyfill ? JSON.stringify(args) : args);
}
const names = async () => (await context().getTools()).map((t) => t.name).sort();
/** Chromium's own WebMCP tells its caller only that a tool failed; the polyfill passes the text on. */
const failure = (text: RegExp) => (context().__isWebMCPPolyfill ? text : /./);

const native = 'modelContext' in document;
// Where the browser has a WebMCP of its own, the polyfill leaves it be.
initializeWebMCPPolyfill();

const pool = createWorkerPool({ worker: toolsUrl, size: 1 });
afterAll(() => pool.close());

describe(`exposeTools (${native ? 'native' : 'polyfill'} WebMCP)`, () => {
  it("registers the agent's tools, runs the browser agent's calls through its invoker, and unregisters on abort", async () => {
    const agent = createAgent({ model: scriptedModel(() => ({ text: '' })), pool });
    const controller = new AbortController();
    const stop = exposeTools(agent, { signal: controller.signal });
    onTestFinished(() => controller.abort());
    // A tool that needs a person's approval is not offered without a way to ask one.
    expect(await stop.ready).toEqual(['lookup', 'nap', 'peek']);
    expect(await names()).toEqual(['lookup', 'nap', 'peek']);
    expect((await context().getTools()).find((t) => t.name === 'lookup')?.annotations?.readOnlyHint).toBe(true);
    expect((await context().getTools()).find((t) => t.name === 'nap')?.annotations?.readOnlyHint).toBe(false);

    expect(await agentCalls('lookup', { word: 'moat' })).toBe('moat: a word');
    // The tool's own time limit holds for this caller too.
    await expect(agentCalls('nap', { ms: 5_000 })).rejects.toThrow(failure(/timed out after 300 ms/));
    // And so does the seal: a tool cannot open the app's storage.
    await expect(agentCalls('peek', {})).rejects.toThrow(failure(/failed/));
    // Bad arguments are the invoker's typed error, worded for the caller.
    await expect(agentCalls('lookup', { word: 42 })).rejects.toThrow(failure(/word/));

    controller.abort();
    await expect.poll(names).toEqual([]);
  });

  it('offers a tool that needs approval only with `approve`, and asks it on every call', async () => {
    const agent = createAgent({ model: scriptedModel(() => ({ text: '' })), pool });
    await expect(exposeTools(agent, { tools: ['wipe'] }).ready).rejects.toThrow(/wipe need a person's approval/);
    const asked: string[] = [];
    let answer = false;
    const stop = exposeTools(createAgent({ model: scriptedModel(() => ({ text: '' })), pool }), {
      tools: ['wipe'],
      approve: (call) => {
        asked.push(call.name);
        return answer;
      },
    });
    onTestFinished(stop);
    expect(await stop.ready).toEqual(['wipe']);
    await expect(agentCalls('wipe', {})).rejects.toThrow(failure(/not approved/));
    answer = true;
    expect(await agentCalls('wipe', {})).toBe('wiped');
    expect(asked).toEqual(['wipe', 'wipe']);
    stop();
    await expect.poll(names).toEqual([]);
  });
});

describe('pageTools', () => {
  it("gives an agent the tools the page registered, results marked untrusted, following the page's changes", async () => {
    const registration = new AbortController();
    await context().registerTool(
      {
        name: 'page.title',
        description: "The page's title",
        inputSchema: { type: 'object', properties: { suffix: { type: 'string' } } },
        annotations: { readOnlyHint: true },
        execute: async ({ suffix }: { suffix?: string }) => ({ title: `Moat${suffix ?? ''}` }),
      },
      { signal: registration.signal },
    );
    onTestFinished(() => registration.abort());
    // The agent's own tools, offered by exposeTools, are not page tools.
    const stop = exposeTools(createAgent({ model: scriptedModel(() => ({ text: '' })), pool }));
    onTestFinished(stop);
    await stop.ready;

    const source = pageTools();
    const model = scriptedModel((messages) =>
      messages.at(-1)?.role === 'tool'
        ? { text: String(messages.at(-1)?.content) }
        : { toolCalls: [{ name: 'page_title', args: { suffix: '!' } }] },
    );
    const agent = createAgent({ model, tools: [source] });
    const specs = await agent.tools();
    expect(specs.map((s) => s.name)).toEqual(['page_title']);
    expect(specs[0]).toMatchObject({ readOnly: true });
    expect(specs[0]?.needsApproval).toBeUndefined();
    const result = await agent.run('what is the title?');
    expect(result.text).toBe(`${UNTRUSTED}\n{"title":"Moat!"}`);

    const changed = new Promise<void>((resolve) => source.onChange(resolve));
    registration.abort();
    await changed;
    expect(await agent.tools()).toEqual([]);
    stop();
  });
});
