/**
 * The demo chat page: an agent whose tools run in a pool of Web Workers, its threads saved in
 * IndexedDB, its model chosen in Settings (the offline demo model by default).
 */
import {
  type Agent,
  type ApprovalDecision,
  codeTool,
  createAgent,
  createCodeSandbox,
  createWorkerPool,
  type Interceptor,
  openIndexedDBCheckpointer,
  type ToolCall,
  ToolInvoker,
} from 'moat';
import { SUGGESTIONS } from './model/offline-rules';
import { describeModel, explainFailure, loadSettings, type ModelSettings, modelFrom } from './model/settings';
// The tools module's address: the pool reads it and runs it sealed (below).
import toolsUrl from './tools/csp-tools.worker.ts?worker&url';
import { ChatView } from './ui/chat-view';
import { h } from './ui/dom';
import { setUpSettingsDialog } from './ui/settings-dialog';
import { showStatus } from './ui/status';
import { ThreadList } from './ui/threads';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const SYSTEM = `You are the assistant of Moat's demo page. Your tools run in Web Workers, isolated from the page, with no network.
Use them: calculator for arithmetic (never compute in your head), convert_units, date_time, remember / recall / list_notes / delete_note for the user's notes (kept in their browser), count_primes, slow_echo, fetch_url (it is denied on purpose: say so), and run_javascript to compute with code (it can call the other tools as functions).
When asked several things, call several tools at once. Answer briefly, in Markdown.`;

const params = new URLSearchParams(location.search);
/**
 * Every call's time limit, over the tools' own (busy_loop 3 s, hog_memory 1.5 s) and the pool's
 * 20 s: `?toolTimeoutMs=0` means none at all (an e2e test shows what that costs).
 */
const toolTimeoutMs = params.has('toolTimeoutMs') ? Number(params.get('toolTimeoutMs')) : undefined;
const POOL_SIZE = 2;
const CURRENT = 'moat-demo-current-thread';

/**
 * The tools run sealed (the default): in workers inside a sandboxed frame at an opaque origin, a
 * process apart from the page's, where the browser keeps them from the page, its storage and the
 * network; a tool that exhausts memory takes down only that process (docs/isolation.md).
 * `?tools=plain`: plain workers of the page's origin, the faster and weaker mode (e2e tests
 * show what it leaves open).
 */
const plainTools = params.get('tools') === 'plain';
const pool = createWorkerPool({
  worker: plainTools
    ? () => new Worker(new URL('./tools/csp-tools.worker.ts', import.meta.url), { type: 'module' })
    : toolsUrl,
  size: POOL_SIZE,
  timeoutMs: 20_000,
  network: 'deny',
  store: 'moat-demo-notes',
});
/**
 * Model-written JavaScript runs sealed off the page, the worker tools callable from it; a script
 * may run 10 s (`?codeTimeoutMs=` changes that: an e2e test lets a memory bomb run to its end).
 */
const sandbox = createCodeSandbox({ timeoutMs: Number(params.get('codeTimeoutMs') ?? 10_000) || 10_000 });
/** `?toolTimeoutMs`: every call's own limit, which wins over the tools' own (docs/threads.md). */
const callLimit = (timeoutMs: number): Interceptor => {
  const limit = timeoutMs > 0 ? timeoutMs : Number.POSITIVE_INFINITY;
  return (request, next) => next(request.override({ timeoutMs: limit }));
};
const invoker = new ToolInvoker({
  pool,
  inlineTools: [codeTool(sandbox, { tools: pool })],
  interceptors: toolTimeoutMs === undefined ? [] : [callLimit(toolTimeoutMs)],
});
const checkpointer = openIndexedDBCheckpointer('moat-demo-threads');

const log = $('log');
const prompt = $<HTMLTextAreaElement>('prompt');
const send = $<HTMLButtonElement>('send');
const stop = $<HTMLButtonElement>('stop');
const badge = $('model-badge');

let settings = loadSettings();
let agent: Agent;
let startupProblem: string | undefined;
try {
  agent = makeAgent(settings);
} catch (error) {
  // Settings saved by hand or by an older page: fall back to the offline model and say why.
  startupProblem = `${explainFailure(error, settings)}. Using the offline demo model.`;
  settings = { ...settings, provider: 'offline' };
  agent = makeAgent(settings);
}
let threadId: string | undefined = localStorage.getItem(CURRENT) ?? undefined;
let running: AbortController | undefined;

function makeAgent(s: ModelSettings): Agent {
  badge.textContent = describeModel(s);
  return createAgent({ model: modelFrom(s), invoker, system: SYSTEM, checkpointer, maxSteps: 8 });
}

const newThreadId = () =>
  `thread-${globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`;

const view = new ChatView(log, (call, approved) => void decide(call, approved));
const threads = new ThreadList($<HTMLUListElement>('threads'), {
  open: (id) => void openThread(id),
  remove: (id) => void removeThread(id),
});

function setCurrent(id: string | undefined): void {
  threadId = id;
  if (id) localStorage.setItem(CURRENT, id);
  else localStorage.removeItem(CURRENT);
}

async function refreshThreads(): Promise<void> {
  try {
    await threads.refresh(agent, threadId);
  } catch (error) {
    console.warn('Could not list the conversations:', error);
  }
}

/** Run the agent on some input and draw everything it does. */
async function run(input: Parameters<Agent['stream']>[0], retry: () => void): Promise<void> {
  if (running) return;
  const id = threadId ?? newThreadId();
  setCurrent(id);
  const controller = new AbortController();
  running = controller;
  setBusy(true);
  view.begin();
  try {
    for await (const event of agent.stream(input, { threadId: id, signal: controller.signal })) {
      if (event.type === 'error') view.error(explainFailure(event.error, settings), retry);
      else view.apply(event);
    }
  } catch (error) {
    view.error(explainFailure(error, settings), retry);
  } finally {
    view.end();
    running = undefined;
    setBusy(false);
    void refreshThreads();
  }
}

function setBusy(busy: boolean): void {
  send.hidden = busy;
  stop.hidden = !busy;
  if (!busy) prompt.focus();
}

async function ask(text: string): Promise<void> {
  if (!text.trim() || running) return;
  const id = threadId ?? newThreadId();
  setCurrent(id);
  threads.name(id, text);
  view.user(text);
  const again = async () => {
    // A failure before the first step was saved loses the message: send it again. After, the
    // thread holds it (and maybe tool results): carry on from there.
    const saved = await agent.thread(id);
    const last = saved?.messages.at(-1);
    if (last && (last.role === 'user' || last.role === 'tool')) await run([], again);
    else await run(text, again);
  };
  await run(text, () => void again());
}

async function decide(call: ToolCall, approved: boolean): Promise<void> {
  if (!threadId) return;
  const decision: ApprovalDecision = approved ? true : { approved: false, reason: 'the user denied it' };
  const input = { approvals: { [call.id]: decision } };
  await run(input, () => void run(input, () => {}));
}

async function openThread(id: string | undefined): Promise<void> {
  if (running) running.abort();
  setCurrent(id);
  document.body.classList.remove('sidebar-open');
  if (!id) {
    view.clear();
    showWelcome();
  } else {
    const saved = await agent.thread(id).catch(() => undefined);
    if (saved) view.thread(saved.messages, saved.pendingApprovals);
    else {
      view.clear();
      showWelcome();
    }
  }
  await refreshThreads();
  prompt.focus();
}

async function removeThread(id: string): Promise<void> {
  await agent.deleteThread(id);
  threads.forget(id);
  if (id === threadId) await openThread(undefined);
  else await refreshThreads();
}

function showWelcome(): void {
  log.append(
    h(
      'div',
      { class: 'welcome' },
      h('h2', {}, 'Tools run in Web Workers, not in your page'),
      h(
        'p',
        {},
        'Ask something, or pick a suggestion below. Every tool call runs in a worker with no DOM, no page globals and no network; its arguments stream in, its progress streams out, and the page keeps drawing.',
      ),
    ),
  );
}

// The composer: Enter sends, Shift+Enter is a new line.
$<HTMLFormElement>('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  const text = prompt.value;
  prompt.value = '';
  void ask(text);
});
prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    $<HTMLFormElement>('composer').requestSubmit();
  }
});
stop.addEventListener('click', () => running?.abort());
$('new-chat').addEventListener('click', () => void openThread(undefined));
$('toggle-sidebar').addEventListener('click', (event) => {
  const open = document.body.classList.toggle('sidebar-open');
  (event.currentTarget as HTMLElement).setAttribute('aria-expanded', String(open));
});

$('suggestions').append(
  ...SUGGESTIONS.map(({ label, prompt: text }) => {
    const button = h('button', { type: 'button', class: 'chip', title: text }, label);
    button.addEventListener('click', () => void ask(text));
    return h('li', {}, button);
  }),
);

const dialog = setUpSettingsDialog((next) => {
  settings = next;
  try {
    agent = makeAgent(next);
  } catch (error) {
    view.error(explainFailure(error, next), () => dialog.open());
  }
});
$('open-settings').addEventListener('click', () => dialog.open());

showStatus(pool, POOL_SIZE, $('workers'), $('fps'));
void openThread(threadId).then(() => {
  if (startupProblem) view.error(startupProblem, () => dialog.open());
});
