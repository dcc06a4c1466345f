// An agent as one tab of the app runs it: its own checkpointer on the app's IndexedDB database,
// a scripted model, a page tool. agent-tabs.browser.test.ts runs one on the test page and one in a
// same-origin iframe (a realm and module instances of its own; the origin's Web Locks and
// IndexedDB), as two tabs would. Results cross back as JSON, errors as their name and message.
// Nothing here imports code dynamically: the test runner's rewrite of import() lives on its page.
import { createAgent } from '../src/agent/agent';
import { lockThread } from '../src/agent/thread-lock';
import { ToolInvoker } from '../src/invoker/tool-invoker';
import type { PageTool } from '../src/invoker/types';
import type { Message } from '../src/messages/types';
import { scriptedModel } from '../src/models/scripted-model';
import { openIndexedDBCheckpointer } from '../src/store/checkpointer';

export { lockThread };

const add: PageTool = {
  kind: 'page-tool',
  name: 'add',
  describe: () => ({
    name: 'add',
    description: 'Add two numbers.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  }),
  run: ({ a, b }) => String((a as number) + (b as number)),
};

/**
 * Per user message: call `add` once, then answer. `log` hears every model call (the tab's name,
 * the message it answers, how many messages it sees); the first call of a thread waits for `gate`.
 */
export function tabAgent(tab: string, db: string, log: (line: string) => void, gate: PromiseLike<void>) {
  const checkpointer = openIndexedDBCheckpointer(db);
  const model = scriptedModel(async (messages: readonly Message[]) => {
    const asked = messages.findLast((m) => m.role === 'user')?.content;
    log(`${tab} answers '${asked}' seeing ${messages.length}`);
    if (messages.length === 1) await gate;
    if (messages.at(-1)?.role === 'tool') return { text: `${tab} is done with ${asked}` };
    return { toolCalls: [{ name: 'add', args: { a: messages.length, b: 1 } }] };
  });
  const agent = createAgent({ model, invoker: new ToolInvoker({ inlineTools: [add] }), checkpointer });
  return {
    /** Resolves with the result as JSON; rejects with `name: message`. */
    run: (text: string, threadId: string, ifBusy: 'wait' | 'fail' = 'wait'): Promise<string> =>
      agent.run(text, { threadId, ifBusy }).then(
        (result) => JSON.stringify(result),
        (error: Error) => Promise.reject(`${error.name}: ${error.message}`),
      ),
    close: () => checkpointer.close(),
  };
}
