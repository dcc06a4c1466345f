/**
 * A model server for tests, on 127.0.0.1, speaking OpenAI Chat Completions, OpenAI Responses,
 * Anthropic Messages, Gemini and Ollama's native API over real HTTP:
 *
 * - scripted conversations: a scenario (chosen by the request's model name) lists the turns; the
 *   server answers a request with the turn whose index is the number of answers the history holds
 *   (so a request that carries tool results gets the next turn), `{{results}}` in a turn's text
 *   being what the tools said;
 * - it cuts each body at random byte boundaries (a seeded generator), writing the pieces apart;
 * - faults on request, per attempt: a status (429 with `Retry-After`, 500…), a stream cut after
 *   some bytes (cleanly or by a reset), garbage, slow chunks;
 * - replays of the recorded streams in `../shared/fixtures`;
 * - malformed requests refused with the provider's own 400 body, a wrong key with its 401 (the
 *   structured-output fields included: `output-format.ts`);
 * - a context window (`contextWindow`): a request longer than it, counted as `tokensOf` does, is
 *   refused with the provider's own context-overflow 400, and the usage each answer reports is
 *   that count;
 * - every request recorded, for assertions (`GET /_requests/<scenario>`), with whether the client
 *   hung up before its stream ended.
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { overflowAnswer, tokensOf } from './context-window';
import { errorBody, requestProblem } from './validate';
import {
  assistantTurns,
  contentType,
  endsWithResults,
  obj,
  replayBody,
  streamBody,
  type TurnContent,
  toolResults,
  type WireFormat,
} from './wire-format';

/** A fault for one attempt at a turn. */
export type Fault =
  | { status: number; retryAfter?: number; message?: string }
  | { cutAfter: number; mode?: 'end' | 'reset' }
  | { garbage: true };

export interface ScriptTurn extends TurnContent {
  /** Attempt k at this turn gets faults[k]; the attempts after them get the turn. */
  faults?: Fault[];
  /** A recorded stream to send instead, by its path under `shared/fixtures/streams/`. */
  replay?: string;
}

export interface Scenario {
  id: string;
  turns: ScriptTurn[];
  /** The key the request must carry (a wrong or missing one is a 401 that quotes what came). */
  apiKey?: string;
  /** A pause between the pieces of a body, in ms. Default 0 (a macrotask only). */
  delayMs?: number;
  /** The largest piece, in bytes. Default 64. */
  maxPiece?: number;
  /** The model's context window, in tokens as `tokensOf` counts them. Default: none. */
  contextWindow?: number;
  /**
   * Which turn answers a request: by the number of answers its history holds (default), or, with
   * 'last-message', turns[1] when the request ends with tool results and turns[0] otherwise (a
   * long conversation whose early history the client may leave out).
   */
  pick?: 'history' | 'last-message';
}

export interface RecordedRequest {
  format: WireFormat;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  /** What the server answered: a status, or 'stream'. */
  answer: number | 'stream';
  /** The client hung up before the streamed body ended (an abort). */
  hungUp?: true;
}

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/streams');

export interface ModelServer {
  url: string;
  server: Server;
  addScenario(scenario: Scenario): void;
  close(): Promise<void>;
}

/** Start the server on 127.0.0.1 (port 0: any free one). */
export async function startModelServer(options: { port?: number; scenarios?: Scenario[] } = {}): Promise<ModelServer> {
  const scenarios = new Map<string, Scenario>();
  const attempts = new Map<string, number>();
  const requests = new Map<string, RecordedRequest[]>();
  const addScenario = (scenario: Scenario) => {
    scenarios.set(scenario.id, scenario);
    requests.delete(scenario.id);
    for (const key of [...attempts.keys()]) if (key.startsWith(`${scenario.id}#`)) attempts.delete(key);
  };
  for (const s of options.scenarios ?? []) addScenario(s);

  const server = createServer(async (req, res) => {
    cors(req, res);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    const url = new URL(req.url ?? '/', 'http://x');
    try {
      if (req.method === 'POST' && url.pathname === '/_scenarios') {
        const scenario = JSON.parse(await readBody(req)) as Scenario;
        addScenario(scenario);
        return json(res, 200, { ok: true });
      }
      if (req.method === 'GET' && url.pathname.startsWith('/_requests/')) {
        return json(res, 200, requests.get(decodeURIComponent(url.pathname.slice('/_requests/'.length))) ?? []);
      }
      const route = routeOf(req.method ?? '', url.pathname);
      if (!route) return json(res, 404, { error: `No route for ${req.method} ${url.pathname}` });
      const { format } = route;
      let body: Record<string, unknown>;
      try {
        body = obj(JSON.parse(await readBody(req)));
      } catch {
        return json(res, 400, errorBody(format, 400, 'The request body is not valid JSON.'));
      }
      const model = route.model ?? String(body.model ?? '');
      const record: RecordedRequest = { format, path: url.pathname, headers: req.headers, body, answer: 200 };
      const list = requests.get(model) ?? [];
      requests.set(model, list);
      list.push(record);
      const answer = (status: number, message: string) => {
        record.answer = status;
        json(res, status, errorBody(format, status, message));
      };
      const scenario = scenarios.get(model);
      if (!scenario) return answer(404, `The model '${model}' does not exist (no such scenario).`);
      if (scenario.apiKey !== undefined) {
        const given = keyOf(format, req, url);
        if (given !== scenario.apiKey) return answer(401, `Incorrect API key provided: ${given ?? '(none)'}.`);
      }
      const problem = requestProblem(format, body, req.headers);
      if (problem) return answer(400, problem);
      const tokens = tokensOf(body);
      if (scenario.contextWindow !== undefined && tokens > scenario.contextWindow) {
        const refusal = overflowAnswer(format, tokens, scenario.contextWindow);
        record.answer = refusal.status;
        return json(res, refusal.status, refusal.body);
      }
      const index =
        scenario.pick === 'last-message' ? (endsWithResults(format, body) ? 1 : 0) : assistantTurns(format, body);
      const turn = scenario.turns[index];
      if (!turn) return answer(400, `The scenario '${model}' has no turn ${index}.`);
      const attemptKey = `${model}#${index}`;
      const attempt = attempts.get(attemptKey) ?? 0;
      attempts.set(attemptKey, attempt + 1);
      const fault = turn.faults?.[attempt];
      if (fault && 'status' in fault) {
        if (fault.retryAfter !== undefined) res.setHeader('retry-after', String(fault.retryAfter));
        return answer(fault.status, fault.message ?? `Scripted failure ${fault.status}.`);
      }
      record.answer = 'stream';
      let text: string;
      if (fault && 'garbage' in fault) text = 'this is not\nwhat any provider sends\n\n';
      else if (turn.replay) text = replayBody(format, readFileSync(resolve(FIXTURES, turn.replay), 'utf8'));
      else {
        const results = toolResults(format, body).join(', ');
        const content: TurnContent = { ...turn };
        if (turn.text !== undefined) content.text = turn.text.replaceAll('{{results}}', results);
        if (scenario.contextWindow !== undefined) content.usage = { input: tokens, ...turn.usage };
        // Looping turns: each answer numbered by the request, so that call ids stay unique.
        text = streamBody(format, content, scenario.pick === 'last-message' ? list.length : index);
      }
      res.writeHead(200, { 'content-type': contentType(format), 'cache-control': 'no-store' });
      const whole = await writeInPieces(
        res,
        Buffer.from(text),
        scenario,
        fault && 'cutAfter' in fault ? fault : undefined,
        seedOf(attemptKey),
      );
      if (!whole) record.hungUp = true;
    } catch (error) {
      if (!res.headersSent) json(res, 500, { error: String(error) });
      else res.destroy();
    }
  });
  await new Promise<void>((done) => server.listen(options.port ?? 0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    addScenario,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

function routeOf(method: string, path: string): { format: WireFormat; model?: string } | undefined {
  if (method !== 'POST') return undefined;
  if (/\/chat\/completions$/.test(path)) return { format: 'openai-chat' };
  if (/\/responses$/.test(path)) return { format: 'openai-responses' };
  if (/\/v1\/messages$/.test(path)) return { format: 'anthropic' };
  if (/\/api\/chat$/.test(path)) return { format: 'ollama' };
  const gemini = /\/models\/([^/:]+):streamGenerateContent$/.exec(path);
  if (gemini) return { format: 'gemini', model: decodeURIComponent(gemini[1] as string) };
  return undefined;
}

function keyOf(format: WireFormat, req: IncomingMessage, url: URL): string | undefined {
  const header = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  switch (format) {
    case 'anthropic':
      // Anthropic takes `x-api-key`, and (newer SDKs) `Authorization: Bearer`.
      return header('x-api-key') ?? header('authorization')?.replace(/^Bearer /, '');
    case 'gemini':
      return header('x-goog-api-key') ?? url.searchParams.get('key') ?? undefined;
    default:
      return header('authorization')?.replace(/^Bearer /, '');
  }
}

/** A small seeded generator (mulberry32): the same cuts for the same scenario and turn. */
function seedOf(text: string): () => number {
  let a = 0;
  for (const ch of text) a = (Math.imul(a, 31) + ch.charCodeAt(0)) | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Write the body in pieces; false when the client hung up before the last one was written. */
async function writeInPieces(
  res: ServerResponse,
  bytes: Buffer,
  scenario: Scenario,
  cut: { cutAfter: number; mode?: 'end' | 'reset' } | undefined,
  random: () => number,
): Promise<boolean> {
  const limit = cut ? Math.min(cut.cutAfter, bytes.length) : bytes.length;
  const maxPiece = scenario.maxPiece ?? 64;
  for (let at = 0; at < limit; ) {
    const size = Math.min(limit - at, 1 + Math.floor(random() * maxPiece));
    res.write(bytes.subarray(at, at + size));
    at += size;
    // The client hung up with pieces still to come.
    if (res.destroyed) return at >= limit;
    await new Promise((done) => setTimeout(done, scenario.delayMs ?? 0)); // the scenario's pace (slow chunks)
  }
  if (cut?.mode === 'reset') res.destroy();
  else res.end();
  return true;
}

function cors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', '*');
  res.setHeader('access-control-allow-methods', 'GET, POST, OPTIONS');
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('access-control-expose-headers', 'retry-after');
  res.setHeader('cross-origin-resource-policy', 'cross-origin');
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => done(Buffer.concat(chunks).toString('utf8')));
    req.on('error', fail);
  });
}
