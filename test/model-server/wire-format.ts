/**
 * How each provider streams one scripted turn, as the bytes its real API sends: the events, their
 * framing (SSE with `event:` names, `data: [DONE]`, or NDJSON), ids, argument JSON in pieces, a
 * finish reason and usage. Also what each format calls an assistant turn and a tool result, so
 * the server can tell which turn a request asks for and read back what the tools said.
 */

export type WireFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'ollama';

export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
  id?: string;
  /** Argument text sent as is instead of JSON.stringify(args) (a broken call, say). */
  rawArgs?: string;
}

export interface TurnContent {
  text?: string;
  toolCalls?: ScriptedCall[];
  /**
   * The usage reported, in OpenAI's sense (`input` counts the cached tokens; Anthropic's body
   * gets them apart, as its API sends them). Default: input 20 + the turn's index.
   */
  usage?: { input?: number; output?: number; cacheRead?: number; cacheWrite?: number };
}

type Obj = Record<string, unknown>;

function pieces(text: string, size = 5): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** The turn's full response body, in the format's framing. */
export function streamBody(format: WireFormat, turn: TurnContent, n: number): string {
  const calls = (turn.toolCalls ?? []).map((c, i) => ({ ...c, id: c.id ?? `call_${n}_${i}` }));
  const argsOf = (c: ScriptedCall) => c.rawArgs ?? JSON.stringify(c.args);
  const text = turn.text ?? '';
  const usage = {
    input: turn.usage?.input ?? 20 + n,
    output: turn.usage?.output ?? 5 + text.length + calls.length * 10,
    cacheRead: turn.usage?.cacheRead,
    cacheWrite: turn.usage?.cacheWrite,
  };
  const cached = (field: string, details: string) =>
    usage.cacheRead === undefined ? {} : { [details]: { [field]: usage.cacheRead } };
  switch (format) {
    case 'openai-chat': {
      const chunk = (delta: Obj, finish: string | null = null) =>
        sse({
          id: `chatcmpl-${n}`,
          object: 'chat.completion.chunk',
          model: 'test',
          choices: [{ index: 0, delta, finish_reason: finish }],
        });
      let out = chunk({ role: 'assistant', content: '' });
      for (const p of pieces(text)) out += chunk({ content: p });
      calls.forEach((c, index) => {
        out += chunk({
          tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
        });
        for (const p of pieces(argsOf(c))) out += chunk({ tool_calls: [{ index, function: { arguments: p } }] });
      });
      out += chunk({}, calls.length > 0 ? 'tool_calls' : 'stop');
      out += sse({
        id: `chatcmpl-${n}`,
        object: 'chat.completion.chunk',
        model: 'test',
        choices: [],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
          ...cached('cached_tokens', 'prompt_tokens_details'),
        },
      });
      return out + sse('[DONE]');
    }
    case 'openai-responses': {
      const id = `resp_${n}`;
      let seq = 0;
      const ev = (type: string, fields: Obj) => sse({ type, sequence_number: seq++, ...fields }, type);
      const output: Obj[] = [];
      let out = ev('response.created', {
        response: { id, object: 'response', status: 'in_progress', model: 'test', output: [] },
      });
      if (text) {
        const item = { id: `msg_${n}`, type: 'message', role: 'assistant', status: 'in_progress', content: [] };
        const index = output.length;
        out += ev('response.output_item.added', { output_index: index, item });
        out += ev('response.content_part.added', {
          item_id: item.id,
          output_index: index,
          content_index: 0,
          part: { type: 'output_text', text: '', annotations: [] },
        });
        for (const p of pieces(text))
          out += ev('response.output_text.delta', {
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta: p,
          });
        out += ev('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text });
        const done = { ...item, status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
        out += ev('response.output_item.done', { output_index: index, item: done });
        output.push(done);
      }
      for (const c of calls) {
        const index = output.length;
        const item = {
          id: `fc_${c.id}`,
          type: 'function_call',
          status: 'in_progress',
          call_id: c.id,
          name: c.name,
          arguments: '',
        };
        out += ev('response.output_item.added', { output_index: index, item });
        for (const p of pieces(argsOf(c)))
          out += ev('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: p });
        out += ev('response.function_call_arguments.done', {
          item_id: item.id,
          output_index: index,
          arguments: argsOf(c),
        });
        const done = { ...item, status: 'completed', arguments: argsOf(c) };
        out += ev('response.output_item.done', { output_index: index, item: done });
        output.push(done);
      }
      return (
        out +
        ev('response.completed', {
          response: {
            id,
            object: 'response',
            status: 'completed',
            model: 'test',
            output,
            usage: {
              input_tokens: usage.input,
              output_tokens: usage.output,
              total_tokens: usage.input + usage.output,
              ...cached('cached_tokens', 'input_tokens_details'),
            },
          },
        })
      );
    }
    case 'anthropic': {
      const ev = (type: string, fields: Obj) => sse({ type, ...fields }, type);
      let out = ev('message_start', {
        message: {
          id: `msg_${n}`,
          type: 'message',
          role: 'assistant',
          model: 'test',
          content: [],
          stop_reason: null,
          usage: {
            input_tokens: usage.input - (usage.cacheRead ?? 0) - (usage.cacheWrite ?? 0),
            output_tokens: 1,
            ...(usage.cacheRead === undefined ? {} : { cache_read_input_tokens: usage.cacheRead }),
            ...(usage.cacheWrite === undefined ? {} : { cache_creation_input_tokens: usage.cacheWrite }),
          },
        },
      });
      out += 'event: ping\ndata: {"type": "ping"}\n\n';
      let index = 0;
      if (text) {
        out += ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
        for (const p of pieces(text))
          out += ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } });
        out += ev('content_block_stop', { index });
        index++;
      }
      for (const c of calls) {
        out += ev('content_block_start', {
          index,
          content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
        });
        for (const p of pieces(argsOf(c)))
          out += ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } });
        out += ev('content_block_stop', { index });
        index++;
      }
      out += ev('message_delta', {
        delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null },
        usage: { output_tokens: usage.output },
      });
      return out + ev('message_stop', {});
    }
    case 'gemini': {
      const chunk = (parts: Obj[], last = false) =>
        sse({
          candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
          ...(last
            ? {
                usageMetadata: {
                  promptTokenCount: usage.input,
                  candidatesTokenCount: usage.output,
                  totalTokenCount: usage.input + usage.output,
                  ...(usage.cacheRead === undefined ? {} : { cachedContentTokenCount: usage.cacheRead }),
                },
              }
            : {}),
          modelVersion: 'test',
        });
      let out = '';
      for (const p of pieces(text)) out += chunk([{ text: p }]);
      if (calls.length > 0) out += chunk(calls.map((c) => ({ functionCall: { name: c.name, args: c.args } })));
      return out + chunk([{ text: '' }], true);
    }
    case 'ollama': {
      const line = (fields: Obj) =>
        `${JSON.stringify({ model: 'test', created_at: new Date(0).toISOString(), ...fields })}\n`;
      let out = '';
      for (const p of pieces(text)) out += line({ message: { role: 'assistant', content: p }, done: false });
      if (calls.length > 0)
        out += line({
          message: {
            role: 'assistant',
            content: '',
            tool_calls: calls.map((c) => ({ function: { name: c.name, arguments: c.args } })),
          },
          done: false,
        });
      return (
        out +
        line({
          message: { role: 'assistant', content: '' },
          done: true,
          done_reason: 'stop',
          prompt_eval_count: usage.input,
          eval_count: usage.output,
        })
      );
    }
  }
}

/** A recorded stream (one event per line, under `shared/fixtures/streams/<format>/`) in the format's framing. */
export function replayBody(format: WireFormat, recorded: string): string {
  if (recorded.includes('\ndata:') || recorded.startsWith('data:')) return recorded;
  const lines = recorded.split('\n').filter((l) => l.trim() !== '');
  if (format === 'ollama') return lines.map((l) => `${l}\n`).join('');
  return lines.map((l) => `data: ${l}\n\n`).join('') + (format === 'openai-chat' ? 'data: [DONE]\n\n' : '');
}

export function contentType(format: WireFormat): string {
  return format === 'ollama' ? 'application/x-ndjson' : 'text/event-stream';
}

/** How many answers of the model's the request's history holds: the index of the turn it asks for. */
export function assistantTurns(format: WireFormat, body: Obj): number {
  switch (format) {
    case 'openai-chat':
    case 'anthropic':
    case 'ollama':
      return list(body.messages).filter((m) => obj(m).role === 'assistant').length;
    case 'gemini':
      return list(body.contents).filter((m) => obj(m).role === 'model').length;
    case 'openai-responses': {
      let turns = 0;
      let inTurn = false;
      for (const raw of list(body.input)) {
        const item = obj(raw);
        const mine = item.role === 'assistant' || item.type === 'function_call' || item.type === 'message';
        if (mine && !inTurn) turns++;
        inTurn = mine;
      }
      return turns;
    }
  }
}

/** Whether the request's last message holds tool results (the model is to go on from them). */
export function endsWithResults(format: WireFormat, body: Obj): boolean {
  switch (format) {
    case 'openai-chat':
    case 'ollama': {
      const messages = list(body.messages).map(obj);
      // Images a tool drew follow its results in a user message of their own.
      const last = messages.findLast((m) => !(m.role === 'user' && Array.isArray(m.content)));
      return last?.role === 'tool';
    }
    case 'openai-responses':
      return obj(list(body.input).at(-1)).type === 'function_call_output';
    case 'anthropic':
      return list(obj(list(body.messages).at(-1)).content).some((b) => obj(b).type === 'tool_result');
    case 'gemini':
      return list(obj(list(body.contents).at(-1)).parts).some((p) => obj(p).functionResponse !== undefined);
  }
}

/** The tool results after the model's last answer, as text, in order. */
export function toolResults(format: WireFormat, body: Obj): string[] {
  const out: string[] = [];
  switch (format) {
    case 'openai-chat':
    case 'ollama':
      for (const m of list(body.messages).map(obj)) {
        if (m.role === 'assistant') out.length = 0;
        if (m.role === 'tool') out.push(String(m.content));
      }
      return out;
    case 'openai-responses':
      for (const item of list(body.input).map(obj)) {
        if (item.type === 'function_call' && out.length > 0) out.length = 0;
        if (item.type === 'function_call_output') out.push(textOf(item.output, 'input_text'));
      }
      return out;
    case 'anthropic':
      for (const m of list(body.messages).map(obj)) {
        if (m.role === 'assistant') out.length = 0;
        for (const block of list(m.content).map(obj))
          if (block.type === 'tool_result') out.push(textOf(block.content, 'text'));
      }
      return out;
    case 'gemini':
      for (const c of list(body.contents).map(obj)) {
        if (c.role === 'model') out.length = 0;
        for (const part of list(c.parts).map(obj)) {
          const fr = obj(part.functionResponse);
          if (part.functionResponse) {
            const response = obj(fr.response);
            out.push(String(response.result ?? response.error ?? JSON.stringify(response)));
          }
        }
      }
      return out;
  }
}

/** A result's text: a string, or its parts of that type joined (an image or a file counts as `[image]`, `[file]`). */
function textOf(content: unknown, textType: string): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return JSON.stringify(content);
  return content
    .map(obj)
    .map((p) =>
      p.type === textType
        ? String(p.text)
        : `[${String(p.type)
            .replace(/^input_/, '')
            .replace('document', 'file')}]`,
    )
    .join(' ');
}

export function obj(value: unknown): Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Obj) : {};
}

export function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
