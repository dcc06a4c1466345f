/**
 * What runs inside a run's worker (one worker per run: see code-sandbox.ts). It is sent as text
 * (`workerSource()`), so this function must stand alone: no imports, no outside names. It takes
 * what it needs from the realm first (the script could replace any global later), then answers
 * the page on the port it is given (protocol.ts): the one `run` evaluates a prepared script (see
 * prepare.ts) and answers `done` or `fail`; `console.*` becomes `out` messages; `tools.<name>(args)`
 * becomes a `call` the page answers with `reply`. A script that tampers with this realm reaches
 * only its own run, whose every message the page checks.
 */
export function sandboxWorker(): void {
  const scope = self as unknown as {
    onmessage: ((e: MessageEvent) => void) | null;
    console: unknown;
    tools: unknown;
    Worker?: unknown;
    SharedWorker?: unknown;
  };
  const { apply } = Reflect;
  const stringify = JSON.stringify;
  const parseJSON = JSON.parse;
  // biome-ignore lint/security/noGlobalEval: running the script is this sandbox's purpose (the seal is around it)
  const evaluate = eval;
  const portPost = MessagePort.prototype.postMessage;
  // The page's messages are read through the getters the realm started with: a script that
  // replaced `MessageEvent.prototype.data` would otherwise be handed each event, and its port.
  const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data')?.get as (
    this: MessageEvent,
  ) => unknown;
  const portsOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'ports')?.get as (
    this: MessageEvent,
  ) => readonly MessagePort[];
  const tagOf = Object.prototype.toString;
  const isArray = Array.isArray;
  const keys = Object.keys;
  const freeze = Object.freeze;
  const PromiseCtor = Promise;
  const MAX_BATCH = 16_384;
  let port: MessagePort | undefined;
  let started = false;
  let outBudget = 0;
  let batch: { level: string; text: string }[] = [];
  let batchChars = 0;
  let flushQueued = false;
  let nextCall = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();

  const post = (message: unknown) => {
    if (port) apply(portPost, port, [message]);
  };

  // Nested workers would share this seal, but they are no use to a script: take them away.
  scope.Worker = undefined;
  scope.SharedWorker = undefined;

  /** Node-style text for console output: strings as they are, the rest inspected (depth 2). */
  const inspect = (value: unknown, depth: number, seen: unknown[]): string => {
    if (typeof value === 'string') return depth === 0 ? value : `'${value}'`;
    if (typeof value === 'bigint') return `${value}n`;
    if (typeof value === 'symbol') return value.toString();
    if (typeof value === 'function') return `[Function: ${value.name || '(anonymous)'}]`;
    if (value === null || typeof value !== 'object') return String(value);
    if (seen.includes(value)) return '[Circular]';
    if (value instanceof Error) return value.stack?.split('\n')[0] ?? `${value.name}: ${value.message}`;
    if (value instanceof Date) return value.toISOString();
    if (depth > 2) return isArray(value) ? '[Array]' : '[Object]';
    const inner = [...seen, value];
    const show = (v: unknown) => inspect(v, depth + 1, inner);
    if (isArray(value))
      return value.length === 0
        ? '[]'
        : `[ ${value.slice(0, 100).map(show).join(', ')}${value.length > 100 ? ', …' : ''} ]`;
    if (value instanceof Map)
      return `Map(${value.size}) { ${[...value]
        .slice(0, 100)
        .map(([k, v]) => `${show(k)} => ${show(v)}`)
        .join(', ')} }`;
    if (value instanceof Set) return `Set(${value.size}) { ${[...value].slice(0, 100).map(show).join(', ')} }`;
    const names = keys(value);
    if (names.length === 0) return apply(tagOf, value, []) === '[object Object]' ? '{}' : apply(tagOf, value, []);
    return `{ ${names
      .slice(0, 100)
      .map((k) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`}: ${show((value as Record<string, unknown>)[k])}`)
      .join(', ')} }`;
  };

  /** A value as JSON text; what JSON cannot hold is described (a string saying what it was). */
  const toJSONText = (value: unknown): string | undefined => {
    const seen: unknown[] = [];
    const convert = (v: unknown): unknown => {
      if (v === undefined) return undefined;
      if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
      if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
      if (typeof v === 'bigint') return `${v}n`;
      if (typeof v === 'function' || typeof v === 'symbol') return inspect(v, 1, []);
      if (seen.includes(v)) return '[Circular]';
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
      if (v instanceof Error) return { name: v.name, message: v.message };
      seen.push(v);
      try {
        if (isArray(v) || ArrayBuffer.isView(v))
          return [...(v as ArrayLike<unknown> & Iterable<unknown>)].map((x) => convert(x) ?? null);
        if (v instanceof Map) return [...v].map(([k, x]) => [convert(k) ?? null, convert(x) ?? null]);
        if (v instanceof Set) return [...v].map((x) => convert(x) ?? null);
        const out: Record<string, unknown> = {};
        for (const k of keys(v as object)) {
          const x = convert((v as Record<string, unknown>)[k]);
          if (x !== undefined) out[k] = x;
        }
        return out;
      } finally {
        seen.pop();
      }
    };
    const converted = convert(value);
    return converted === undefined ? undefined : stringify(converted);
  };

  const flush = () => {
    flushQueued = false;
    if (batch.length === 0) return;
    post({ t: 'out', entries: batch });
    batch = [];
    batchChars = 0;
  };
  const log =
    (level: string) =>
    (...args: unknown[]) => {
      if (outBudget <= 0) return;
      let text = args.map((a) => inspect(a, 0, [])).join(' ');
      if (text.length > outBudget) text = text.slice(0, outBudget);
      outBudget -= text.length + 1;
      batch.push({ level, text });
      batchChars += text.length;
      if (outBudget <= 0) {
        flush();
        post({ t: 'limit' });
      } else if (batchChars >= MAX_BATCH) flush();
      else if (!flushQueued) {
        flushQueued = true;
        queueMicrotask(flush);
      }
    };
  scope.console = freeze({
    log: log('log'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    debug: log('debug'),
    trace: log('debug'),
    table: log('log'),
    dir: log('log'),
  });

  const makeTools = (names: string[]) => {
    const tools: Record<string, (args?: unknown) => Promise<unknown>> = {};
    for (const name of names) {
      tools[name] = (args = {}) =>
        new PromiseCtor((resolve, reject) => {
          const id = ++nextCall;
          let text: string | undefined;
          try {
            text = toJSONText(args);
          } catch (error) {
            reject(error);
            return;
          }
          pending.set(id, { resolve, reject });
          flush();
          post({ t: 'call', call: id, name, args: text ?? '{}' });
        });
    }
    return freeze(tools);
  };

  const onMessage = (event: MessageEvent) => {
    const m = apply(dataOf, event, []) as { t?: unknown; [k: string]: unknown } | null;
    if (m?.t === 'reply') {
      const waiting = pending.get(m.call as number);
      if (!waiting) return;
      pending.delete(m.call as number);
      if (m.ok) waiting.resolve(m.value === undefined ? undefined : parseJSON(m.value as string));
      else {
        const e = new Error(m.message as string);
        e.name = m.name as string;
        waiting.reject(e);
      }
      return;
    }
    if (m?.t !== 'run' || started) return;
    started = true;
    outBudget = m.maxOutput as number;
    scope.tools = makeTools(m.tools as string[]);
    let result: Promise<unknown>;
    try {
      result = PromiseCtor.resolve(evaluate(m.code as string));
    } catch (error) {
      result = PromiseCtor.reject(error);
    }
    result.then(
      (value) => {
        flush();
        let text: string | undefined;
        try {
          text = toJSONText(value);
        } catch (error) {
          post({ t: 'fail', name: 'Error', message: `The result could not be read: ${String(error)}` });
          return;
        }
        post({ t: 'done', value: text });
      },
      (error: unknown) => {
        flush();
        const e = error as { name?: unknown; message?: unknown; stack?: unknown } | null;
        const isError = typeof e === 'object' && e !== null;
        post({
          t: 'fail',
          name: isError && typeof e.name === 'string' ? e.name : 'Error',
          message: isError && typeof e.message === 'string' ? e.message : `Uncaught ${inspect(error, 1, [])}`,
          stack: isError && typeof e.stack === 'string' ? e.stack.slice(0, 4_000) : '',
        });
      },
    );
  };

  scope.onmessage = (event: MessageEvent) => {
    const given = apply(portsOf, event, [])[0];
    if (port || !given) return;
    port = given;
    port.onmessage = onMessage;
    scope.onmessage = null;
    post({ t: 'ready' });
  };
}

/** The worker's script: the function above, called. */
export function workerSource(): string {
  return `(${sandboxWorker.toString()})();`;
}
