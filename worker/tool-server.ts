/// <reference lib="webworker" />
/**
 * The half of a tool worker that speaks to the page: it takes the realm's locks, holds the only
 * way to post to the page (the worker's own `postMessage`, or the port a sealed worker is handed),
 * serves the page's requests (`ToolWorkerApi`, which the page wraps with Comlink; see
 * `src/pool/protocol.ts`), and runs the calls it is sent on a `ToolCatalog`. In a sealed worker
 * this is Moat's runtime, evaluated before any module of the tools (`./sealed-runtime`); in a
 * plain one, the copy of it `moat-sdk/worker` brings (see `serveTools`).
 */
import { reviveError, serializeError } from '../src/errors/serialize-error';
import { onceUntilFailure } from '../src/frame/once-until-failure';
import { answerPage, PageAsks } from '../src/frame/sealed-end';
import {
  type CallRequest,
  type CallResult,
  type DescribeAnswer,
  type OutEntry,
  PROTOCOL_VERSION,
  type Ready,
  type ToolWorkerApi,
  type WorkerConfig,
  type WorkerToPage,
} from '../src/pool/protocol';
import { deferredStore } from '../src/store/deferred-store';
import type { Store } from '../src/store/types';
import { unavailableStore } from '../src/store/unavailable-store';
import { type AskPage, installNetworkGuard, setNetworkPolicy } from './network-guard';
import { Outbox } from './outbox';
import { apply, construct, OriginalPromise, portStart, promiseThen } from './primordials';
import { portPoster, receivePageMessages, takePostMessage, watchForDeath } from './realm-locks';
import { asToolError, RunningCall } from './running-call';

/**
 * The tools a worker serves, as the server sees them: what `serveTools` makes of the tools module's
 * definitions (with the zod schemas, which stay on that side). Tool code could call the server
 * with a catalog of its own as it could call `serveTools`: the first one served wins.
 */
export interface ToolCatalog {
  /** What the worker's `ready` says of its tools. */
  readonly names: readonly string[];
  readonly idempotent: readonly string[];
  readonly timeouts: Readonly<Record<string, number>>;
  describe(): DescribeAnswer;
  /** Run one call: synchronous up to the tool's first `await`; throws or rejects with what failed. */
  run(call: CallRequest, context: CallContext): CallResult | Promise<CallResult>;
}

/** What the server gives a call besides its request. */
export interface CallContext {
  signal(): AbortSignal;
  emit(delta: unknown): void;
  /** The store limited to `namespaces` (all of it when undefined), on first use. */
  store(namespaces: string[][] | undefined): Store;
}

/**
 * Serve `catalog` to the page: once per worker (a second call throws). Nothing is answered before
 * the pool's `configure`, which sets the network policy and the store.
 */
export function serveCatalog(catalog: ToolCatalog): void {
  // Normally installed when moat-sdk/worker (or the sealed runtime) was evaluated; never serve without it.
  installNetworkGuard();
  // Only the server speaks to the page: tool code cannot post (forged results, say). Locked
  // since the runtime was evaluated.
  let toPage: (message: object) => void = takePostMessage();
  let server: ToolServer | undefined;
  let framed: MessagePort | undefined;
  const serving = () => {
    if (!server) throw new Error('The pool has not configured this worker yet');
    return server;
  };
  // What the page may ask, and nothing else: own methods of an object with no prototype.
  const api: ToolWorkerApi = Object.assign(Object.create(null) as object, {
    configure(config: WorkerConfig): Ready {
      // The pool's first request, always: nothing runs before the policy is in force.
      if (server) throw new Error('This worker is configured already');
      server = new ToolServer(config, catalog, (message) => toPage(message));
      return {
        version: PROTOCOL_VERSION,
        names: [...catalog.names],
        idempotent: [...catalog.idempotent],
        timeouts: { ...catalog.timeouts },
      };
    },
    describe: () => serving().describe(),
    calls: (calls: CallRequest[]) => serving().receiveCalls(calls),
    cancel: (ids: number[]) => serving().cancel(ids),
    answer: (ask: number, allow: boolean) => serving().answer(ask, allow),
    stop: () => serving().stop(),
  });
  // Calls, cancels and network answers are one-way: a batch of calls costs one message.
  const answer = answerPage(api, (message) => toPage(message), serializeError, {
    calls: true,
    cancel: true,
    answer: true,
  });
  // The page's messages, taken since the realm was locked: listeners tool code adds never see them.
  receivePageMessages((event) => {
    if (!event.isTrusted) return;
    // A sealed worker, hosted in a sandboxed frame (the pool's `worker: url`): before anything
    // else, the frame hands it the port the page talks on. Everything then goes over that port.
    if (!server && event.data === 'port' && event.ports[0] && !framed) {
      framed = event.ports[0];
      toPage = portPoster(framed);
      // Only the page's messages: tool code could dispatch forged ones (a network answer, say).
      receivePageMessages((message) => message.isTrusted && answer(message.data), framed);
      apply(portStart, framed, []);
      return;
    }
    if (!framed) answer(event.data);
  });
}

class ToolServer {
  readonly #post: (message: WorkerToPage) => void;
  readonly #catalog: ToolCatalog;
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
  readonly #asks: PageAsks<{ url: string; api: string }>;

  constructor(config: WorkerConfig, catalog: ToolCatalog, post: (message: WorkerToPage) => void) {
    this.#post = post;
    this.#catalog = catalog;
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
    this.#asks = new PageAsks((ask, { url, api }) => post({ t: 'net?', ask, url, api }), reviveError);
    // Anything but a true answer is no. Only built-ins taken before tool code ran.
    const ask: AskPage = (url, api) =>
      construct(OriginalPromise, [
        (resolve: (allow: boolean) => void) =>
          promiseThen(
            this.#asks.ask({ url, api }),
            (allow) => resolve(allow === true),
            () => resolve(false),
          ),
      ]) as Promise<boolean>;
    setNetworkPolicy(config.network, ask);
    watchForDeath((reason) => {
      // What finished before the end still gets to the page; nothing more starts here.
      this.#closing = true;
      this.#flush();
      this.#post({ t: 'fatal', reason, started: this.#outbox.started });
    });
  }

  cancel(ids: number[]): void {
    for (const id of ids) this.#running.get(id)?.abort(new DOMException('The call was cancelled', 'AbortError'));
  }

  answer(ask: number, allow: boolean): void {
    this.#asks.answer(ask, { value: allow });
  }

  describe(): DescribeAnswer {
    return this.#catalog.describe();
  }

  /** The page is about to stop this worker: start nothing more, and say exactly what began. */
  stop(): { started: number } {
    this.#closing = true;
    this.#flush();
    return { started: this.#outbox.started };
  }

  receiveCalls(calls: CallRequest[]): void {
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
    return this.#catalog.run(call, {
      signal: () => running.signal,
      emit: (delta) => {
        if (this.#running.has(call.id)) this.#emit(call, delta);
      },
      store: (namespaces) => this.#storeFor(namespaces, call),
    });
  }

  /** The store as a tool limited to `namespaces` may see it. Its code is loaded the first time a tool asks. */
  #storeFor(namespaces: string[][] | undefined, call: CallRequest): Store {
    const who = { toolName: call.name, toolCallId: call.toolCallId };
    if (!this.#storeName)
      return unavailableStore(who, "this pool has no store: pass `store: 'a-database-name'` to createWorkerPool");
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
