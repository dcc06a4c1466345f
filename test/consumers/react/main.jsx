import { createAgent, createChat, createWorkerPool, scriptedModel } from 'moat-sdk';
import { useChat } from 'moat-sdk/react';
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

// tools.worker.ts is an entry point of its own (esbuild.config.js): its bundle sits beside this one.
const pool = createWorkerPool({ worker: new URL('./tools.worker.js', import.meta.url) });

// No network: the model asks for one tool call, then answers with what the tool returned.
const model = scriptedModel((messages) => {
  const last = messages.at(-1);
  return last?.role === 'tool'
    ? { text: `6 x 7 = ${last.content}` }
    : { toolCalls: [{ name: 'multiply', args: { a: 6, b: 7 } }] };
});
const chat = createChat({ agent: createAgent({ model, pool }) });

function App() {
  const { messages, status, error: runError, send } = useChat(chat);
  // A run that fails shows in the snapshot (status 'error'); a send that cannot start rejects.
  const [sendError, setSendError] = useState();
  useEffect(() => {
    send('What is 6 times 7?').catch(setSendError);
  }, [send]);
  const error = runError ?? sendError;
  const parts = messages.filter((message) => message.role === 'assistant').flatMap((message) => message.parts);
  const outputs = parts.map((part) => (part.type === 'tool' ? (part.output ?? '') : '')).join('');
  const answer = parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  // Where the page says how the run went; scripts/test-package.ts reads it.
  useEffect(() => {
    if (error) document.body.dataset.state = 'error';
    else if (status === 'ready' && answer) document.body.dataset.state = 'done';
  }, [status, answer, error]);
  return (
    <main>
      <p>
        Tool result: <output id="tool">{outputs}</output>
      </p>
      <p>
        Answer: <output id="answer">{answer}</output>
      </p>
      <pre id="error">{error ? `${error.name}: ${error.message}` : ''}</pre>
    </main>
  );
}

const root = document.getElementById('root');
if (root) createRoot(root).render(<App />);
