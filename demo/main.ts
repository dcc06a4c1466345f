/**
 * The demo chat page: an agent whose tools run in a pool of Web Workers, its threads saved in
 * IndexedDB, its model chosen in Settings (the offline demo model by default).
 */
import {
  type Agent,
  type ChatAgent,
  ChatBusyError,
  codeTool,
  createAgent,
  createChat,
  createCodeSandbox,
  createWorkerPool,
  exposeTools,
  type Interceptor,
  type McpServer,
  openIndexedDBCheckpointer,
  ToolInvoker,
} from 'moat-sdk';
import { SUGGESTIONS } from './model/offline-rules';
import { describeModel, explainFailure, loadSettings, type ModelSettings, modelFrom } from './model/settings';
// The tools module's address: the pool reads it and runs it sealed (below).
import toolsUrl from './tools/csp-tools.worker.ts?worker&url';
import { ChatView } from './ui/chat-view';
import { h } from './ui/dom';
import { setUpMcpServers } from './ui/mcp-servers';
import { setUpSettingsDialog } from './ui/settings-dialog';
import { showStatus } from './ui/status';
import { ThreadList } from './ui/threads';
import { usageBadge } from './ui/usage';

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
/** The notes tools' namespace in the pool's database (demo/tools/csp-tools.worker.ts's NOTES). */
const NOTES_GRANT = { store: [['notes']] };
const pool = createWorkerPool({
  worker: plainTools
    ? () => new Worker(new URL('./tools/csp-tools.worker.ts', import.meta.url), { type: 'module' })
    : toolsUrl,
  size: POOL_SIZE,
  timeoutMs: 20_000,
  network: 'deny',
  store: 'moat-demo-notes',
  // What the page allows the notes tools, whatever the tools module says of itself.
  grants: {
    remember: NOTES_GRANT,
    recall: NOTES_GRANT,
    list_notes: NOTES_GRANT,
    delete_note: { ...NOTES_GRANT, needsApproval: true },
  },
});
/**
 * Model-written JavaScript runs sealed off the page, the worker tools callable from it; a script
 * may run 10 s (`?codeTimeoutMs=` changes that: an e2e test lets a memory bomb run to its end).
 * One sandbox serves every conversation: each run is a realm of its own, stopped when it ends,
 * so no script state passes from one run, or one conversation, to another (docs/code-sandbox.md).
 */
const sandbox = createCodeSandbox({ timeoutMs: Number(params.get('codeTimeoutMs') ?? 10_000) || 10_000 });
/** `?toolTimeoutMs`: every call's own limit, which wins over the tools' own (docs/threads.md). */
const callLimit = (timeoutMs: number): Interceptor => {
  const limit = timeoutMs > 0 ? timeoutMs : Number.POSITIVE_INFINITY;
  return (request, next) => next(request.override({ timeoutMs: limit }));
};
/** The MCP servers added in Settings: their tools sit beside the pool's. */
let mcpServers: McpServer[] = [];
/** Offered to the browser's own agents through WebMCP, where the browser has it (not polyfilled). */
let unexpose: (() => void) | undefined;
const makeInvoker = () => {
  const made = new ToolInvoker({
    pool,
    tools: mcpServers,
    inlineTools: [codeTool(sandbox, { tools: pool })],
    interceptors: toolTimeoutMs === undefined ? [] : [callLimit(toolTimeoutMs)],
  });
  unexpose?.();
  if ('modelContext' in document) unexpose = exposeTools(made);
  return made;
};
let invoker = makeInvoker();
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

function makeAgent(s: ModelSettings): Agent {
  badge.textContent = describeModel(s);
  return createAgent({ model: modelFrom(s), invoker, system: SYSTEM, checkpointer, maxSteps: 8 });
}

/** The chat talks to whichever agent the settings made last. */
const current: ChatAgent = {
  stream: (input, options) => agent.stream(input, options),
  thread: (id) => agent.thread(id),
  threads: () => agent.threads(),
  deleteThread: (id) => agent.deleteThread(id),
};
/**
 * Changes are drawn as they come (once per task), not once a frame as by default: a tool's
 * progress and arguments show every state they pass through even when a loaded machine holds
 * frames back (the e2e tests record each one). Markdown is still parsed once a frame (the view).
 */
const chat = createChat({
  agent: current,
  threadId: localStorage.getItem(CURRENT) ?? undefined,
  schedule: (notify) => queueMicrotask(notify),
});

const view = new ChatView(log, {
  approve: (toolCallId, approved) =>
    void chat.approve(toolCallId, approved ? true : { approved: false, reason: 'the user denied it' }),
  retry: () => void chat.retry(),
  explain: (error) => explainFailure(error, settings),
  welcome,
});
const threads = new ThreadList($<HTMLUListElement>('threads'), {
  open: (id) => {
    document.body.classList.remove('sidebar-open');
    void chat.openThread(id).then(() => prompt.focus());
  },
  remove: (id) => void chat.deleteThread(id),
});

let streaming = false;
const usage = usageBadge();
$('fps').after(usage.element);
/** Draw the chat as it stands: the conversation, the sidebar, the composer's buttons, the tokens used. */
function draw(): void {
  const snapshot = chat.getSnapshot();
  view.render(snapshot);
  usage.draw(snapshot.usage);
  threads.render(snapshot.threads, snapshot.threadId);
  // A reload reopens the thread shown.
  if (localStorage.getItem(CURRENT) !== snapshot.threadId) localStorage.setItem(CURRENT, snapshot.threadId);
  const busy = snapshot.status === 'streaming';
  if (busy !== streaming) {
    streaming = busy;
    send.hidden = busy;
    stop.hidden = !busy;
    if (!busy) prompt.focus();
  }
}
chat.subscribe(draw);

/** Files waiting to go with the next message: picked, pasted or dropped. */
let attached: File[] = [];
const attachedList = $<HTMLUListElement>('attached');

function drawAttached(): void {
  for (const img of attachedList.querySelectorAll('img')) URL.revokeObjectURL(img.src);
  attachedList.hidden = attached.length === 0;
  attachedList.replaceChildren(
    ...attached.map((file, i) => {
      const remove = h('button', { type: 'button', class: 'remove', 'aria-label': `Remove ${file.name}` }, '×');
      remove.addEventListener('click', () => {
        attached = attached.filter((_, j) => j !== i);
        drawAttached();
        prompt.focus();
      });
      const preview = file.type.startsWith('image/')
        ? h('img', { src: URL.createObjectURL(file), alt: file.name })
        : h('span', { class: 'attachment file' }, file.name);
      return h('li', { 'data-testid': 'attached' }, preview, remove);
    }),
  );
}

function attach(files: Iterable<File>): void {
  attached = [...attached, ...files].slice(0, 10);
  drawAttached();
}

/** Send a message (the composer keeps its text and files while a run goes on). */
function ask(text: string): boolean {
  if ((!text.trim() && attached.length === 0) || chat.getSnapshot().status === 'streaming') return false;
  const files = attached;
  attached = [];
  drawAttached();
  chat.send(text, { attachments: files }).catch((error: unknown) => {
    // Sent twice before the first one showed: the second waits in the composer.
    if (ChatBusyError.isInstance(error)) {
      prompt.value ||= text;
      attach(files);
      return;
    }
    // A file that cannot be read: keep the message and its files (the one refused can be
    // removed), and say why under the composer.
    prompt.value ||= text;
    attach(files);
    attachedList.append(h('li', { class: 'note error', role: 'alert' }, `Not sent: ${(error as Error).message}`));
  });
  return true;
}

$('attach-button').addEventListener('click', () => $<HTMLInputElement>('attach').click());
$<HTMLInputElement>('attach').addEventListener('change', (event) => {
  const input = event.currentTarget as HTMLInputElement;
  attach(input.files ?? []);
  input.value = '';
  prompt.focus();
});
prompt.addEventListener('paste', (event) => {
  const files = [...(event.clipboardData?.files ?? [])];
  if (files.length === 0) return;
  event.preventDefault();
  attach(files);
});
const composer = $<HTMLFormElement>('composer');
composer.addEventListener('dragover', (event) => {
  if (!event.dataTransfer?.types.includes('Files')) return;
  event.preventDefault();
  composer.classList.add('dropping');
});
composer.addEventListener('dragleave', () => composer.classList.remove('dropping'));
composer.addEventListener('drop', (event) => {
  composer.classList.remove('dropping');
  const files = [...(event.dataTransfer?.files ?? [])];
  if (files.length === 0) return;
  event.preventDefault();
  attach(files);
  prompt.focus();
});

function welcome(): HTMLElement {
  return h(
    'div',
    { class: 'welcome' },
    h('h2', {}, 'Tools run in Web Workers, not in your page'),
    h(
      'p',
      {},
      'Ask something, or pick a suggestion below. Every tool call runs in a worker with no DOM, no page globals and no network; its arguments stream in, its progress streams out, and the page keeps drawing.',
    ),
  );
}

// The composer: Enter sends, Shift+Enter is a new line.
$<HTMLFormElement>('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  if (ask(prompt.value)) prompt.value = '';
});
prompt.addEventListener('keydown', (event) => {
  if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
    event.preventDefault();
    $<HTMLFormElement>('composer').requestSubmit();
  }
});
stop.addEventListener('click', () => chat.stop());
$('new-chat').addEventListener('click', () => {
  document.body.classList.remove('sidebar-open');
  void chat.newThread();
  prompt.focus();
});
$('toggle-sidebar').addEventListener('click', (event) => {
  const open = document.body.classList.toggle('sidebar-open');
  (event.currentTarget as HTMLElement).setAttribute('aria-expanded', String(open));
});

$('suggestions').append(
  ...SUGGESTIONS.map(({ label, prompt: text }) => {
    const button = h('button', { type: 'button', class: 'chip', title: text }, label);
    button.addEventListener('click', () => ask(text));
    return h('li', {}, button);
  }),
);

const dialog = setUpSettingsDialog((next) => {
  settings = next;
  try {
    agent = makeAgent(next);
  } catch (error) {
    view.notice(explainFailure(error, next), 'Change settings', () => dialog.open());
  }
});
$('open-settings').addEventListener('click', () => dialog.open());
setUpMcpServers(
  (servers) => {
    mcpServers = servers;
    invoker = makeInvoker();
    agent = makeAgent(settings);
  },
  (problem) => view.notice(problem, 'Change settings', () => dialog.open()),
);

showStatus(pool, POOL_SIZE, $('workers'), $('fps'));
draw();
prompt.focus();
if (startupProblem) view.notice(startupProblem, 'Change settings', () => dialog.open());
