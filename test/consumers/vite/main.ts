import { createAgent, createWorkerPool, mcpServer, scriptedModel, ToolInvoker } from 'moat-sdk';
import { browserOAuth, finishOAuth } from 'moat-sdk/mcp';
import { textOf } from 'moat-sdk/messages';
import { resultValue } from 'moat-sdk/pool';
import { toOpenAITools } from 'moat-sdk/providers';
import toolsUrl from './tools.worker.ts?worker&url';

/** Where the page says how the run went; scripts/test-package.ts reads them. */
const show = (id: string, text: string) => {
  const element = document.getElementById(id);
  if (element) element.textContent = text;
};

// This page is also where an MCP server's sign-in comes back (in its popup): it finishes there.
if (new URLSearchParams(location.search).has('state')) {
  const { popup } = await finishOAuth();
  if (popup) window.close();
  await new Promise(() => {});
}

// Sealed, the default: the tools run in a sandboxed frame's worker, read from this app's origin.
const pool = createWorkerPool({ worker: toolsUrl });

// No network: the model asks for one tool call, then answers with what the tool returned.
const model = scriptedModel((messages) => {
  const last = messages.at(-1);
  return last?.role === 'tool'
    ? { text: `6 x 7 = ${last.content}` }
    : { toolCalls: [{ name: 'multiply', args: { a: 6, b: 7 } }] };
});
const agent = createAgent({ model, pool });

try {
  // A subpath of the package (its exports map): the tools' specs in OpenAI's shape.
  show(
    'spec',
    toOpenAITools(await pool.specs())
      .map((t) => (t.function as { name: string }).name)
      .join(','),
  );
  // Another subpath: the pool's own call, its value read back.
  show('pool', String(resultValue(await pool.call({ id: 'p', name: 'multiply', args: { a: 2, b: 3 } }))));
  for await (const event of agent.stream('What is 6 times 7?')) {
    if (event.type === 'tool-finished') show('tool', textOf(event.message.content));
    if (event.type === 'tool-error') throw event.error;
    if (event.type === 'error') throw event.error;
    if (event.type === 'finish') show('answer', event.text);
  }
  // A remote MCP server's tool, its client sealed (the SDK reaches this app as a string of the package's).
  const mcp = new URLSearchParams(location.search).get('mcp');
  if (mcp) {
    const server = mcpServer({ url: `${mcp}/mcp` });
    const { messages } = await new ToolInvoker({ tools: [server] }).run([
      { id: 'm', name: 'echo', args: { text: 'from the package' } },
    ]);
    show('mcp', textOf(messages[0]?.content ?? ''));
    await server.close();
    // One that wants OAuth: a sign-in window, back to this page, then the call.
    const url = `${mcp}/oauth/mcp`;
    const redirectUrl = new URL(location.pathname, location.href);
    const signedIn = mcpServer({ url, authProvider: browserOAuth({ url, redirectUrl }) });
    const { messages: after } = await new ToolInvoker({ tools: [signedIn] }).run([
      { id: 'o', name: 'echo', args: { text: 'signed in' } },
    ]);
    show('oauth', textOf(after[0]?.content ?? ''));
    await signedIn.close();
  }
  document.body.dataset.state = 'done';
} catch (error) {
  show('error', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  document.body.dataset.state = 'error';
} finally {
  await pool.close();
}
