/// <reference lib="webworker" />
import { describeValue } from '../src/errors/moat-error';
import { serializeError } from '../src/errors/serialize-error';
import { ToolNotFoundError } from '../src/errors/tool-not-found-error';
import { onceUntilFailure } from '../src/pool/once-until-failure';
import {
  type CallRequest,
  type CallResult,
  type DescribeAnswer,
  type OutEntry,
  type PageToWorker,
  PROTOCOL_VERSION,
  type WorkerConfig,
  type WorkerToPage,
} from '../src/pool/protocol';
import type { ToolSpec } from '../src/providers/tool-spec';
import { deferredStore } from '../src/store/deferred-store';
import type { Store } from '../src/store/types';
import { unavailableStore } from '../src/store/unavailable-store';
import { isToolDefinition, type ToolDefinition } from './define-tool';
import { describeTool } from './describe-tool';
import { executeTool } from './execute-tool';
import { installNetworkGuard, setNetworkPolicy } from './network-guard';
import { Outbox } from './outbox';
import { PageAsks } from './page-asks';
import { apply, portStart } from './primordials';
import { type PageMessage, portPoster, receivePageMessages, takePostMessage, watchForDeath } from './realm-locks';
import { asToolError, RunningCall } from './running-call';

/**
 * Serve these tools to a Moat worker pool: call it once, at the top level of the worker module.
 * Arguments are validated with each tool's zod schema here in the worker; results are converted
 * to text here too, so the page receives strings, not object graphs.
 *
 * The store code (IndexedDB, idb, the query engine) is loaded when a tool first uses
 * `runtime.store`, not at start: a worker whose tools never touch it never loads it.
 *
 * @example serveTools([multiply, remember, countPrimes]);
 */
export function serveTools(tools: readonly ToolDefinition[]): void {
  // Normally installed when moat/worker was evaluated; never serve tools without it.
  installNetworkGuard();
  // Only the server speaks to the page: tool code cannot post (forged results, say). Locked
  // since moat/worker was evaluated.
  let toPage = takePostMessage();
  if (!Array.isArray(tools)) throw new TypeError(`serveTools takes a list of tools, got ${describeValue(tools)}`);
  const byName = new Map<string, ToolDefinition>();
  for (const tool of tools) {
    if (!isToolDefinition(tool))
      throw new TypeError(`serveTools: every tool must come from defineTool(), got ${describeValue(tool)}`);
    if (byName.has(tool.name)) throw new TypeError(`serveTools: two tools are named '${tool.name}'`);
    byName.set(tool.name, tool);
  }
  let specs: ToolSpec[] | undefined;
  const allSpecs = () => {
    specs ??= tools.map((tool) => describeTool(tool).spec);
    return specs;
  };
  const describe = (): DescribeAnswer => {
    try {
      return { descriptors: tools.map(describeTool) };
    } catch (error) {
      return { error: serializeError(error) }; // keeps its class on the page
    }
  };
  let server: ToolServer | undefined;
  let framed: MessagePort | undefined;
  const receive = (event: PageMessage) => {
    // Only the page's messages: tool code could dispatch forged ones (a 'net' answer, say).
    if (!event.isTrusted) return;
    const message = event.data as PageToWorker;
    if (server) {
      server.receive(message);
      return;
    }
    // The pool's first message, always: nothing runs before the policy is in force.
    if (message?.t !== 'hello') return;
    server = new ToolServer(message.config, byName, allSpecs, describe, toPage);
    toPage({
      t: 'ready',
      version: PROTOCOL_VERSION,
      names: [...byName.keys()],
      idempotent: tools.filter((t) => t.idempotent).map((t) => t.name),
      timeouts: Object.fromEntries(tools.flatMap((t) => (t.timeoutMs === undefined ? [] : [[t.name, t.timeoutMs]]))),
    });
  };
  // The page's messages, taken since moat/worker was evaluated: listeners tool code adds never see them.
  receivePageMessages((event) => {
    // A sealed worker, hosted in a sandboxed frame (the pool's `worker: url`): before anything
    // else, the frame hands it the port the page talks on. Everything then goes over that port.
    if (event.isTrusted && !server && event.data === 'port' && event.ports[0] && !framed) {
      framed = event.ports[0];
      toPage = portPoster(framed);
      receivePageMessages(receive, framed);
      apply(portStart, framed, []);
      return;
    }
    if (!framed) receive(event);
  });
}

class ToolServer {
  readonly #post: (message: WorkerToPage) => void;
  readonly #tools: Map<string, ToolDefinition>;
  readonly #specs: () => readonly ToolSpec[];
  readonly #describe: () => DescribeAnswer;
  readonly #running = new Map<number, RunningCall>();
  /** Results, errors and deltas not posted yet, and the started count. */
  readonly #outbox: Outbox;
  readonly #storeName: string | undefined;
  /** Where the page serves the store, for a worker with no IndexedDB of its own (framed). */
  readonly #storePort: MessagePort | undefined;
  /** The worker's store and the code to scope it, loaded when a tool first asks. */
  readonly #store = onceUntilFailure(async () => {
    const code = await import('./store-code');
    const store = this.#storePort
      ? code.storeOverPort(this.#storePort)
      : code.openIndexedDBStore(this.#storeName as string);
    return { code, store };
  });
  #closing = false;
  #flushScheduled = false;
  /** Questions to the page about URLs (`network: 'ask'`). */
  readonly #asks: PageAsks;

  constructor(
    config: WorkerConfig,
    tools: Map<string, ToolDefinition>,
    specs: () => readonly ToolSpec[],
    describe: () => DescribeAnswer,
    post: (message: WorkerToPage) => void,
  ) {
    this.#post = post;
    this.#tools = tools;
    this.#specs = specs;
    this.#describe = describe;
    this.#outbox = new Outbox(
      post,
      (id) => this.#running.get(id)?.call,
      (id, failure) => {
        this.#running.get(id)?.abort(failure);
        this.#running.delete(id);
      },
    );
    this.#storeName = config.store?.name;
    this.#storePort = config.store?.port;
    this.#asks = new PageAsks(post);
    setNetworkPolicy(config.network, this.#asks.ask);
    watchForDeath((reason) => {
      // What finished before the end still gets to the page; nothing more starts here.
      this.#closing = true;
      this.#flush();
      this.#post({ t: 'fatal', reason, started: this.#outbox.started });
    });
  }

  receive(message: PageToWorker): void {
    switch (message?.t) {
      case 'calls':
        this.#receiveCalls(message.calls);
        break;
      case 'cancel':
        for (const id of message.ids)
          this.#running.get(id)?.abort(new DOMException('The call was cancelled', 'AbortError'));
        break;
      case 'net':
        this.#asks.answer(message.ask, message.allow);
        break;
      case 'describe':
        this.#post({ t: 'described', ...this.#describe() });
        break;
      case 'stop':
        // The page is about to stop this worker: start nothing more, and say exactly what began.
        this.#closing = true;
        this.#flush();
        this.#post({ t: 'stopped', started: this.#outbox.started });
        break;
    }
  }

  #receiveCalls(calls: CallRequest[]): void {
    for (let i = 0; i < calls.length; i++) {
      // What the calls before this one produced is posted before it starts: if it hogs the
      // worker until the worker is stopped, their results are not lost with it (and the page
      // learns that they started).
      if (this.#outbox.pending) this.#flush();
      this.#start(calls[i] as CallRequest);
    }
    this.#flush();
  }

  /**
   * Start a call. Everything up to the tool's first `await` runs now, in the order the calls
   * arrived, so the started count says exactly which calls have begun.
   */
  #start(call: CallRequest): void {
    if (this.#closing) return; // not counted as started: the page sends it elsewhere
    this.#outbox.started++;
    const running = new RunningCall(call);
    this.#running.set(call.id, running);
    let outcome: CallResult | Promise<CallResult>;
    try {
      outcome = this.#run(call, running);
    } catch (error) {
      // Failed synchronously: answered now, like a synchronous result (not a microtask later,
      // when a sibling started next may already hold the thread).
      this.#answer(call, { id: call.id, error: serializeError(asToolError(error, call)) });
      return;
    }
    // A tool that answered synchronously is done now.
    if (!(outcome instanceof Promise)) {
      this.#answer(call, { id: call.id, result: outcome });
      return;
    }
    outcome.then(
      (result) => this.#answer(call, { id: call.id, result }),
      (error: unknown) => this.#answer(call, { id: call.id, error: serializeError(asToolError(error, call)) }),
    );
  }

  /** Synchronous until the tool itself awaits (or its input schema is async): a plain tool answers at once. */
  #run(call: CallRequest, running: RunningCall): CallResult | Promise<CallResult> {
    const tool = this.#tools.get(call.name);
    if (!tool)
      throw new ToolNotFoundError({
        toolName: call.name,
        toolCallId: call.toolCallId,
        available: [...this.#tools.keys()],
      });
    return executeTool(tool, call, {
      signal: () => running.signal,
      emit: (delta) => {
        if (this.#running.has(call.id)) this.#emit(call, delta);
      },
      store: () => this.#storeFor(tool, call),
      tools: this.#specs,
    });
  }

  /** The store as this tool may see it. Its code is loaded the first time a tool asks. */
  #storeFor(tool: ToolDefinition, call: CallRequest): Store {
    const who = { toolName: call.name, toolCallId: call.toolCallId };
    if (!this.#storeName)
      return unavailableStore(who, "this pool has no store: pass `store: 'a-database-name'` to createWorkerPool");
    const namespaces = tool.storeNamespaces;
    return deferredStore(
      this.#store().then(({ code, store }) => (namespaces ? code.scopeStore(store, namespaces, who) : store)),
    );
  }

  /** A result or an error leaves at once: no other tool code runs before it is posted. */
  #answer(call: CallRequest, entry: OutEntry): void {
    this.#running.delete(call.id);
    this.#outbox.push(entry, call);
    this.#flush();
  }

  /** Deltas of the same tick go together. */
  #emit(call: CallRequest, delta: unknown): void {
    this.#outbox.push({ id: call.id, delta }, call);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    queueMicrotask(() => this.#flush());
  }

  #flush(): void {
    this.#flushScheduled = false;
    this.#outbox.flush();
  }
}
