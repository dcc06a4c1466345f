/**
 * `useChat`: a chat (`createChat`) in a React component. The snapshot is read with
 * `useSyncExternalStore`, so a render sees one consistent chat, and the component renders again
 * only when the chat's snapshot is a new object (at most once per animation frame while an answer
 * streams: the chat's own schedule). The actions are the chat's, bound once per chat.
 */
import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { type Chat, createChat } from '../chat/create-chat';
import type { ChatOptions, ChatSnapshot } from '../chat/types';
import { describeValue } from '../errors/moat-error';

/** The chat's actions, bound: stable for the chat's life, safe to pass to `memo` children and effects' lists. */
export interface ChatActions {
  /** `chat.send`: show the message and run the agent on it; rejects with `ChatBusyError` while a run is under way. */
  send: Chat['send'];
  /** `chat.stop`: end the run under way (its answer keeps what came, with `stopReason: 'aborted'`). */
  stop: Chat['stop'];
  /** `chat.retry`: try again what failed or was stopped last. */
  retry: Chat['retry'];
  /** `chat.approve`: decide on a call waiting for approval (`true`, or `{ approved: false, reason }`). */
  approve: Chat['approve'];
  openThread: Chat['openThread'];
  newThread: Chat['newThread'];
  deleteThread: Chat['deleteThread'];
  refreshThreads: Chat['refreshThreads'];
}

/**
 * What `useChat` returns: the chat's snapshot (`messages`, `status`, `error`,
 * `pendingApprovals`, `threads`, `usage`, `threadId`), its actions, and the chat itself. The
 * same object between renders until the snapshot changes.
 */
export type UseChatHelpers = ChatSnapshot & ChatActions & { readonly chat: Chat };

/**
 * A chat in a component: its snapshot, its actions, and the chat.
 *
 * - `useChat(chat)`: a chat made elsewhere (`createChat`), which may outlive the component (kept
 *   in a module or a context, shared by several components). Nothing is stopped on unmount.
 * - `useChat({ agent, threadId, … })`: a chat made for this component from the first render's
 *   options (`createChat`'s own), and stopped when the component unmounts. Later renders'
 *   options are not read: give the component a `key` (the thread's id, say) to start over with
 *   others.
 *
 * @example
 * function Panel({ agent }: { agent: Agent }) {
 *   const { messages, status, send, stop } = useChat({ agent });
 *   // …
 * }
 */
export function useChat(chatOrOptions: Chat | ChatOptions): UseChatHelpers {
  // The form is fixed by the first render: the chat this component made, or none.
  const [own] = useState(() => (isChat(chatOrOptions) ? undefined : createChat(chatOrOptions)));
  if (own !== undefined && isChat(chatOrOptions))
    throw new TypeError('useChat was given options first and a chat now: give a component one or the other');
  if (own === undefined && !isChat(chatOrOptions))
    throw new TypeError(
      `useChat takes a chat (createChat(…)) or createChat's options, and keeps to the first render's form: got ${describeValue(chatOrOptions)} after a chat`,
    );
  const chat = own ?? (chatOrOptions as Chat);
  // A run of the component's own chat has no one to stop it once the component is gone. (A
  // StrictMode remount runs this cleanup before anything was sent: nothing to stop.)
  useEffect(() => (own ? () => own.stop() : undefined), [own]);
  // getSnapshot also serves the server's render: the chat as made, nothing loaded yet.
  const snapshot = useSyncExternalStore(chat.subscribe, chat.getSnapshot, chat.getSnapshot);
  const actions = useMemo(() => bound(chat), [chat]);
  return useMemo(() => ({ ...snapshot, ...actions, chat }), [snapshot, actions, chat]);
}

function bound(chat: Chat): ChatActions {
  return {
    send: (text, options) => chat.send(text, options),
    stop: () => chat.stop(),
    retry: () => chat.retry(),
    approve: (toolCallId, decision) => chat.approve(toolCallId, decision),
    openThread: (threadId) => chat.openThread(threadId),
    newThread: () => chat.newThread(),
    deleteThread: (threadId) => chat.deleteThread(threadId),
    refreshThreads: () => chat.refreshThreads(),
  };
}

/** A chat, by what `useChat` uses of it (a second copy of the package makes chats of another class). */
function isChat(value: unknown): value is Chat {
  const chat = value as Partial<Chat> | null;
  return (
    typeof chat === 'object' &&
    chat !== null &&
    typeof chat.getSnapshot === 'function' &&
    typeof chat.subscribe === 'function'
  );
}
