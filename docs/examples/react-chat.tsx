/**
 * A chat in React over Moat's `createChat`: the snapshot through `useSyncExternalStore`, the
 * actions straight from the chat. Type-checked against React's types (test/docs-examples.test.ts).
 */

import { type Agent, type Chat, createChat, type UIMessage, type UIPart, type UIToolPart } from 'moat-sdk';
import { useState, useSyncExternalStore } from 'react';

export function ChatPanel({ agent, threadId }: { agent: Agent; threadId?: string }) {
  // One chat per mounted panel (key the panel by thread to start over with another).
  const [chat] = useState(() => createChat({ agent, threadId }));
  const { messages, status, error } = useSyncExternalStore(chat.subscribe, chat.getSnapshot);
  const [draft, setDraft] = useState('');
  return (
    <section aria-busy={status === 'streaming'}>
      {messages.map((message) => (
        <Message key={message.id} message={message} chat={chat} />
      ))}
      {error && (
        <p role="alert">
          {error.message}{' '}
          <button type="button" onClick={() => void chat.retry()}>
            Retry
          </button>
        </p>
      )}
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!draft.trim() || status === 'streaming') return;
          void chat.send(draft);
          setDraft('');
        }}
      >
        <textarea value={draft} onChange={(event) => setDraft(event.target.value)} aria-label="Message" />
        {status === 'streaming' ? (
          <button type="button" onClick={() => chat.stop()}>
            Stop
          </button>
        ) : (
          <button type="submit">Send</button>
        )}
      </form>
    </section>
  );
}

/** A message: the same object between renders until it changes, so `memo` would skip it. */
function Message({ message, chat }: { message: UIMessage; chat: Chat }) {
  return (
    <article className={message.role}>
      {message.parts.map((part, i) =>
        part.type === 'tool' ? (
          <ToolCall key={part.toolCallId} part={part} chat={chat} />
        ) : (
          // A message's parts only grow at its end: a part's place is its identity.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <Part key={i} part={part} />
        ),
      )}
      {message.stopReason === 'aborted' && <small>Stopped.</small>}
    </article>
  );
}

function Part({ part }: { part: Exclude<UIPart, UIToolPart> }) {
  if (part.type === 'text') return <p>{part.text}</p>;
  if (part.type === 'reasoning') return <details>{part.text}</details>;
  if (part.type === 'output') return <pre>{JSON.stringify(part.value, null, 2)}</pre>;
  if (part.type === 'image') return <img src={part.url} alt={part.filename ?? 'attached'} />;
  return <a href={part.url}>{part.filename ?? part.mediaType}</a>;
}

function ToolCall({ part, chat }: { part: UIToolPart; chat: Chat }) {
  return (
    <div className="tool" data-state={part.state}>
      <code>{part.toolName}</code> {part.state}
      <pre>{JSON.stringify(part.input ?? part.partialInput ?? {}, null, 2)}</pre>
      {part.state === 'approval-requested' && (
        <>
          <button type="button" onClick={() => void chat.approve(part.toolCallId, true)}>
            Approve
          </button>
          <button
            type="button"
            onClick={() => void chat.approve(part.toolCallId, { approved: false, reason: 'not now' })}
          >
            Deny
          </button>
        </>
      )}
      {part.output !== undefined && <pre>{part.output}</pre>}
      {part.error !== undefined && (
        <p role="alert" data-kind={part.error.kind}>
          {part.error.message}
        </p>
      )}
      {part.children?.map((child) => (
        <ToolCall key={child.toolCallId} part={child} chat={chat} />
      ))}
    </div>
  );
}
