// The chat's state without an agent: events in, snapshots out.
import { describe, expect, it, vi } from 'vitest';
import { finishEvent } from '../../test/chat-helpers';
import type { AgentEvent } from '../agent/types';
import { ToolDeniedError } from '../errors/tool-denied-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { aiMessage, toolMessage, userMessage } from '../messages/constructors';
import type { Message, ToolCall } from '../messages/types';
import { ChatState } from './chat-state';
import type { UIMessage, UIToolPart } from './types';
import { toUIMessages } from './ui-messages';

function stateWith(messages: Message[] = [], pending: ToolCall[] = []) {
  let changes = 0;
  const state = new ChatState('t1', () => changes++);
  state.load('t1', { messages, pending });
  state.snapshot();
  changes = 0;
  return { state, changes: () => changes };
}

const apply = (state: ChatState, ...events: AgentEvent[]) => {
  for (const event of events) state.apply(event);
};
const tools = (message: UIMessage | undefined) =>
  (message?.parts ?? []).filter((p) => p.type === 'tool') as UIToolPart[];
const SCRIPTED = { provider: 'scripted', modelId: 'scripted' };
const finish = finishEvent;

describe('snapshots', () => {
  it('are the same object until something changes, and the change is heard once until the next snapshot', () => {
    const { state, changes } = stateWith([userMessage('hi'), aiMessage('Hello.')]);
    const first = state.snapshot();
    expect(state.snapshot()).toBe(first);
    state.begin(false);
    apply(state, { type: 'text-delta', delta: 'a' }, { type: 'text-delta', delta: 'b' });
    expect(changes()).toBe(1);
    const second = state.snapshot();
    expect(second).not.toBe(first);
    expect(state.snapshot()).toBe(second);
    // What did not change is shared: the earlier messages are the same objects.
    expect(second.messages[0]).toBe(first.messages[0]);
    expect(second.messages[1]).toBe(first.messages[1]);
    expect(second.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'ab' }]);
    apply(state, { type: 'text-delta', delta: 'c' });
    expect(changes()).toBe(2);
    const third = state.snapshot();
    // The earlier snapshot is left as it was.
    expect(second.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'ab' }]);
    expect(third.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'abc' }]);
  });

  it('a part that did not change stays the same object while another one streams', () => {
    const { state } = stateWith();
    state.begin(false);
    apply(
      state,
      { type: 'text-delta', delta: 'Computing.' },
      { type: 'tool-input-start', toolCallId: 'c1', name: 'add', index: 0 },
    );
    const before = state.snapshot();
    apply(state, { type: 'tool-call', toolCall: { id: 'c1', name: 'add', args: { a: 1, b: 2 } } });
    const after = state.snapshot();
    expect(after.messages[0]?.parts[0]).toBe(before.messages[0]?.parts[0]);
    expect(after.messages[0]?.parts[1]).not.toBe(before.messages[0]?.parts[1]);
  });
});

describe('a tool call, as a part', () => {
  it('goes from its arguments streaming (copied per snapshot: the agent keeps extending them) to its output', () => {
    const { state } = stateWith();
    state.begin(false);
    const live: Record<string, unknown> = { a: 1 };
    apply(
      state,
      { type: 'tool-input-start', toolCallId: 'c1', name: 'add', index: 0 },
      { type: 'tool-input-delta', toolCallId: 'c1', delta: '{"a":1', partialArgs: live },
    );
    const streaming = tools(state.snapshot().messages[0])[0];
    expect(streaming).toMatchObject({ state: 'input-streaming', partialInput: { a: 1 }, progress: [] });
    live.b = 2;
    expect(streaming?.partialInput).toEqual({ a: 1 });
    apply(state, { type: 'tool-input-delta', toolCallId: 'c1', delta: ',"b":2', partialArgs: live });
    expect(tools(state.snapshot().messages[0])[0]?.partialInput).toEqual({ a: 1, b: 2 });
    apply(
      state,
      { type: 'tool-call', toolCall: { id: 'c1', name: 'add', args: { a: 1, b: 2 } } },
      { type: 'tool-started', toolCallId: 'c1', name: 'add', args: { a: 1, b: 2 } },
      { type: 'tool-output-delta', toolCallId: 'c1', delta: { progress: 50 } },
    );
    const running = tools(state.snapshot().messages[0])[0];
    expect(running).toMatchObject({ state: 'running', input: { a: 1, b: 2 }, progress: [{ progress: 50 }] });
    expect(running?.partialInput).toBeUndefined();
    expect(running?.startedAt).toEqual(expect.any(Number));
    apply(
      state,
      { type: 'tool-output-delta', toolCallId: 'c1', delta: { progress: 100 } },
      {
        type: 'tool-finished',
        toolCallId: 'c1',
        name: 'add',
        output: '3',
        message: toolMessage({ toolCallId: 'c1', name: 'add', content: '3', artifact: { sum: 3 } }),
      },
    );
    const done = tools(state.snapshot().messages[0])[0];
    expect(done).toMatchObject({
      state: 'output-available',
      output: '3',
      artifact: { sum: 3 },
      progress: [{ progress: 50 }, { progress: 100 }],
    });
    expect(running?.progress).toEqual([{ progress: 50 }]);
  });

  it('copies live arguments per snapshot without copying their strings (a 50 MB argument is not cloned per frame)', () => {
    const { state } = stateWith();
    state.begin(false);
    // As the partial-JSON parser gives them: extended in place, a `__proto__` key an own property.
    const live = JSON.parse('{"text":"abc","rows":[{"k":"v"}],"__proto__":{"x":1}}') as Record<string, unknown>;
    const clone = vi.spyOn(globalThis, 'structuredClone');
    try {
      apply(
        state,
        { type: 'tool-input-start', toolCallId: 'c1', name: 'write', index: 0 },
        { type: 'tool-input-delta', toolCallId: 'c1', delta: '…', partialArgs: live },
      );
      const first = tools(state.snapshot().messages[0])[0]?.partialInput as Record<string, unknown>;
      live.text = 'abcdef';
      (live.rows as Record<string, unknown>[]).push({ k: 'w' });
      ((live.rows as Record<string, unknown>[])[0] as Record<string, unknown>).k = 'changed';
      apply(state, { type: 'tool-input-delta', toolCallId: 'c1', delta: '…', partialArgs: live });
      const second = tools(state.snapshot().messages[0])[0]?.partialInput as Record<string, unknown>;
      // The earlier snapshot is left as it was; the later one has the delta.
      expect(first).toEqual(JSON.parse('{"text":"abc","rows":[{"k":"v"}],"__proto__":{"x":1}}'));
      expect(second).toEqual(JSON.parse('{"text":"abcdef","rows":[{"k":"changed"},{"k":"w"}],"__proto__":{"x":1}}'));
      for (const copy of [first, second]) {
        expect(Object.hasOwn(copy, '__proto__')).toBe(true);
        expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
      }
      // Strings are immutable: shared, never copied (identity of a string is not observable, the
      // copy made of them is). structuredClone copied every string once per frame.
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });

  it('a call made by another (code calling tools) is a child of its part; events find it by its id', () => {
    const { state } = stateWith();
    state.begin(false);
    apply(
      state,
      { type: 'tool-input-start', toolCallId: 'code', name: 'run_javascript', index: 0 },
      { type: 'tool-call', toolCall: { id: 'code', name: 'run_javascript', args: { code: '…' } } },
      { type: 'tool-started', toolCallId: 'code', name: 'run_javascript', args: { code: '…' } },
      { type: 'tool-started', toolCallId: 'n1', name: 'add', args: { a: 1, b: 2 }, parentToolCallId: 'code' },
      { type: 'tool-started', toolCallId: 'n2', name: 'fail', args: {}, parentToolCallId: 'code' },
      { type: 'tool-output-delta', toolCallId: 'code', delta: { level: 'log', text: 'hi' } },
    );
    const early = state.snapshot();
    apply(
      state,
      {
        type: 'tool-finished',
        toolCallId: 'n1',
        name: 'add',
        output: 3,
        message: toolMessage({ toolCallId: 'n1', name: 'add', content: '3' }),
        parentToolCallId: 'code',
      },
      {
        type: 'tool-error',
        toolCallId: 'n2',
        error: new ToolExecutionError({ toolName: 'fail', toolCallId: 'n2', message: 'broke' }),
        parentToolCallId: 'code',
      },
      // A call the script made that failed before it started still goes under the script.
      {
        type: 'tool-error',
        toolCallId: 'n3',
        error: new ToolExecutionError({ toolName: 'ghost', toolCallId: 'n3', message: 'no such tool' }),
        parentToolCallId: 'code',
      },
    );
    const [code] = tools(state.snapshot().messages[0]);
    expect(tools(state.snapshot().messages[0])).toHaveLength(1);
    expect(code?.state).toBe('running');
    expect(code?.progress).toEqual([{ level: 'log', text: 'hi' }]);
    expect(code?.children?.map((c) => [c.toolCallId, c.state, c.output ?? c.error])).toEqual([
      ['n1', 'output-available', '3'],
      ['n2', 'output-error', { kind: 'failed', message: 'Failed: broke' }],
      ['n3', 'output-error', { kind: 'failed', message: 'Failed: no such tool' }],
    ]);
    expect(tools(early.messages[0])[0]?.children?.map((c) => c.state)).toEqual(['running', 'running']);
  });

  it('a refused call is denied; a call run again starts its progress again', () => {
    const { state } = stateWith();
    state.begin(false);
    apply(
      state,
      { type: 'tool-call', toolCall: { id: 'd', name: 'delete_note', args: {} } },
      {
        type: 'tool-error',
        toolCallId: 'd',
        error: new ToolDeniedError({ toolName: 'delete_note', toolCallId: 'd', reason: 'no' }),
        message: toolMessage({
          toolCallId: 'd',
          name: 'delete_note',
          content: 'Error: not approved: no',
          status: 'error',
        }),
      },
      { type: 'tool-started', toolCallId: 'r', name: 'slow', args: {} },
      { type: 'tool-output-delta', toolCallId: 'r', delta: 'one ' },
      { type: 'tool-rerun', toolCallId: 'r', reason: 'its worker was replaced' },
      { type: 'tool-output-delta', toolCallId: 'r', delta: 'one ' },
    );
    const [denied, rerun] = tools(state.snapshot().messages[0]);
    expect(denied).toMatchObject({ state: 'output-denied', error: { kind: 'denied', message: 'Not approved: no.' } });
    expect(rerun).toMatchObject({ state: 'running', rerun: 'its worker was replaced', progress: ['one '] });
  });
});

describe('approvals', () => {
  it('a call that asks waits; decided, it no longer does; the finish says what still waits', () => {
    const { state } = stateWith();
    state.begin(false);
    const call = { id: 'd', name: 'delete_note', args: { key: 'tea' } };
    const other = { id: 'e', name: 'delete_note', args: { key: 'cake' } };
    apply(
      state,
      { type: 'tool-call', toolCall: call },
      { type: 'tool-call', toolCall: other },
      { type: 'step-finish', step: 1, message: aiMessage(''), toolMessages: [], model: SCRIPTED },
      { type: 'approval-request', toolCall: call },
      { type: 'approval-request', toolCall: other },
      finish({ stopReason: 'approval', pendingApprovals: [call, other] }),
    );
    let snapshot = state.snapshot();
    expect(snapshot.status).toBe('awaiting-approval');
    expect(snapshot.pendingApprovals).toEqual([call, other]);
    expect(tools(snapshot.messages[0]).map((p) => p.state)).toEqual(['approval-requested', 'approval-requested']);
    state.decided(['d']);
    snapshot = state.snapshot();
    expect(snapshot.pendingApprovals).toEqual([other]);
    expect(tools(snapshot.messages[0]).map((p) => p.state)).toEqual(['input-available', 'approval-requested']);
    state.undecided([call]);
    expect(state.snapshot().pendingApprovals).toEqual([other, call]);
    expect(tools(state.snapshot().messages[0])[0]?.state).toBe('approval-requested');
  });

  it('keeps pendingApprovals the same array while the calls waiting do not change (a memoized view sees no change)', () => {
    const { state } = stateWith();
    const before = state.snapshot().pendingApprovals;
    state.user('hi');
    apply(state, finish());
    state.user('again');
    apply(state, finish({ pendingApprovals: [] }));
    expect(state.snapshot().pendingApprovals).toBe(before);
    const call = { id: 'd', name: 'delete_note', args: { key: 'tea' } };
    apply(state, { type: 'tool-call', toolCall: call }, { type: 'approval-request', toolCall: call });
    apply(state, finish({ stopReason: 'approval', pendingApprovals: [call] }));
    const waiting = state.snapshot().pendingApprovals;
    expect(waiting).toEqual([call]);
    // The same call told again (a reload's finish, say): the same array.
    apply(state, finish({ stopReason: 'approval', pendingApprovals: [{ ...call }] }));
    expect(state.snapshot().pendingApprovals).toBe(waiting);
  });
});

describe('structured output', () => {
  it("takes the place of its step's text (the output's JSON) and ends as the checked value", () => {
    const { state } = stateWith();
    state.begin(false);
    const partial: Record<string, unknown> = { city: 'Par' };
    apply(state, { type: 'text-delta', delta: '{"city":"Par' });
    state.apply({ type: 'output-delta', partial } as unknown as AgentEvent);
    apply(state, { type: 'text-delta', delta: 'is"}' });
    const streaming = state.snapshot().messages[0]?.parts;
    expect(streaming).toEqual([{ type: 'output', value: { city: 'Par' }, partial: true }]);
    partial.city = 'Paris';
    expect(streaming).toEqual([{ type: 'output', value: { city: 'Par' }, partial: true }]);
    state.apply({ ...finish(), output: { city: 'Paris' } } as unknown as AgentEvent);
    expect(state.snapshot().messages[0]?.parts).toEqual([{ type: 'output', value: { city: 'Paris' }, partial: false }]);
  });

  it('a step with tools before the answer keeps its text; the answer step has the output', () => {
    const { state } = stateWith();
    state.begin(false);
    apply(
      state,
      { type: 'text-delta', delta: 'Looking.' },
      { type: 'tool-call', toolCall: { id: 'c', name: 'add', args: {} } },
      { type: 'step-finish', step: 1, message: aiMessage('Looking.'), toolMessages: [], model: SCRIPTED },
      { type: 'text-delta', delta: '{"n":' },
    );
    state.apply({ type: 'output-delta', partial: { n: 3 } } as unknown as AgentEvent);
    expect(state.snapshot().messages[0]?.parts.map((p) => p.type)).toEqual(['text', 'tool', 'output']);
  });

  it('copies the partial output per snapshot without structuredClone: later changes do not reach an earlier snapshot', () => {
    const { state } = stateWith();
    state.begin(false);
    const partial: Record<string, unknown> = { cities: ['Par'] };
    const clone = vi.spyOn(globalThis, 'structuredClone');
    try {
      state.apply({ type: 'output-delta', partial } as unknown as AgentEvent);
      const first = state.snapshot().messages[0]?.parts;
      (partial.cities as string[])[0] = 'Paris';
      (partial.cities as string[]).push('Ro');
      state.apply({ type: 'output-delta', partial } as unknown as AgentEvent);
      expect(first).toEqual([{ type: 'output', value: { cities: ['Par'] }, partial: true }]);
      expect(state.snapshot().messages[0]?.parts).toEqual([
        { type: 'output', value: { cities: ['Paris', 'Ro'] }, partial: true },
      ]);
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });
});

describe('rollback (what a retry drops)', () => {
  it('drops what the run showed past its last saved step, and an answer of which nothing was saved', () => {
    const { state } = stateWith([userMessage('hi')]);
    state.begin(false);
    apply(state, { type: 'text-delta', delta: 'Half an ans' });
    state.rollback();
    expect(state.snapshot().messages.map((m) => m.role)).toEqual(['user']);

    state.begin(false);
    apply(
      state,
      { type: 'text-delta', delta: 'Let me.' },
      { type: 'tool-call', toolCall: { id: 'c', name: 'add', args: {} } },
      { type: 'step-finish', step: 1, message: aiMessage('Let me.'), toolMessages: [], model: SCRIPTED },
      { type: 'text-delta', delta: 'The resu' },
      { type: 'tool-input-start', toolCallId: 'x', name: 'add', index: 0 },
      finish({ stopReason: 'aborted' }),
    );
    expect(state.snapshot().messages[1]?.stopReason).toBe('aborted');
    state.rollback();
    const answer = state.snapshot().messages[1];
    expect(answer?.parts.map((p) => p.type)).toEqual(['text', 'tool']);
    expect(answer?.stopReason).toBeUndefined();
    // The dropped call is forgotten: its events change nothing; the kept one's still land.
    const before = state.snapshot();
    apply(state, { type: 'tool-output-delta', toolCallId: 'x', delta: 'late' });
    expect(state.snapshot()).toBe(before);
    apply(state, { type: 'tool-started', toolCallId: 'c', name: 'add', args: {} });
    expect(tools(state.snapshot().messages[1])[0]?.state).toBe('running');
  });

  it('a stop before anything came leaves an empty answer that says so', () => {
    const { state } = stateWith([userMessage('hi')]);
    state.begin(false);
    apply(state, finish({ stopReason: 'aborted' }));
    expect(state.snapshot().messages[1]).toMatchObject({ role: 'assistant', parts: [], stopReason: 'aborted' });
  });
});

describe('toUIMessages (a saved thread)', () => {
  it("shows a person's images and files, and a tool's, each with a URL a page can draw", () => {
    const PNG = 'iVBORw0KGgoAAAANSUhEUg==';
    const messages: Message[] = [
      userMessage([
        { type: 'text', text: 'Chart this' },
        { type: 'image', data: PNG, mediaType: 'image/png' },
        { type: 'file', data: 'https://example.com/r.pdf', mediaType: 'application/pdf', filename: 'r.pdf' },
      ]),
      userMessage([{ type: 'image', data: 'https://example.com/cat.jpg' }]),
      aiMessage({ toolCalls: [{ id: 'c1', name: 'chart', args: {} }], stopReason: 'tool-calls' }),
      toolMessage({
        toolCallId: 'c1',
        name: 'chart',
        content: [
          { type: 'text', text: 'Drawn.' },
          { type: 'image', data: PNG, mediaType: 'image/png' },
        ],
      }),
    ];
    let n = 0;
    const ui = toUIMessages(messages, [], () => `id${++n}`);
    expect(ui[0]?.parts).toEqual([
      { type: 'text', text: 'Chart this' },
      { type: 'image', url: `data:image/png;base64,${PNG}`, mediaType: 'image/png' },
      { type: 'file', url: 'https://example.com/r.pdf', mediaType: 'application/pdf', filename: 'r.pdf' },
    ]);
    // An image alone: no empty text part.
    expect(ui[1]?.parts).toEqual([{ type: 'image', url: 'https://example.com/cat.jpg' }]);
    expect(ui[2]?.parts[0]).toMatchObject({
      state: 'output-available',
      output: 'Drawn.',
      media: [{ type: 'image', url: `data:image/png;base64,${PNG}`, mediaType: 'image/png' }],
    });
  });

  it("makes one answer per turn, with each call's result, its waiting calls, and a script's console and calls", () => {
    let n = 0;
    const messages: Message[] = [
      userMessage('Compute'),
      aiMessage({
        content: 'Running code.',
        reasoning: 'Code is best.',
        toolCalls: [
          { id: 'code', name: 'run_javascript', args: { code: 'x' } },
          { id: 'bad', name: 'fail', args: {} },
        ],
      }),
      toolMessage({
        toolCallId: 'code',
        name: 'run_javascript',
        content: 'Result: 3',
        artifact: {
          value: 3,
          logs: [{ level: 'log', text: 'hi' }],
          calls: [{ toolCallId: 'n1', name: 'add', args: { a: 1, b: 2 }, content: '3', ok: true }],
        },
      }),
      toolMessage({ toolCallId: 'bad', name: 'fail', content: 'Error: broke', status: 'error' }),
      aiMessage({ content: '', toolCalls: [{ id: 'del', name: 'delete_note', args: { key: 'k' } }] }),
      userMessage('Next'),
    ];
    const ui = toUIMessages(messages, [{ id: 'del', name: 'delete_note', args: { key: 'k' } }], () => `id${++n}`);
    expect(ui.map((m) => [m.id, m.role])).toEqual([
      ['id1', 'user'],
      ['id2', 'assistant'],
      ['id3', 'user'],
    ]);
    expect(ui[1]?.parts.map((p) => (p.type === 'tool' ? `${p.toolName}:${p.state}` : p.type))).toEqual([
      'reasoning',
      'text',
      'run_javascript:output-available',
      'fail:output-error',
      'delete_note:approval-requested',
    ]);
    const [code, bad] = tools(ui[1]);
    expect(code?.progress).toEqual([{ level: 'log', text: 'hi' }]);
    expect(code?.children).toEqual([
      {
        type: 'tool',
        toolCallId: 'n1',
        toolName: 'add',
        state: 'output-available',
        output: '3',
        input: { a: 1, b: 2 },
        progress: [],
      },
    ]);
    expect(bad?.error).toEqual({ kind: 'failed', message: 'broke' });
  });

  it('a loaded thread is indexed: events for its calls find them (a decision after a reload)', () => {
    const call = { id: 'del', name: 'delete_note', args: { key: 'k' } };
    const { state } = stateWith([userMessage('Delete k'), aiMessage({ content: '', toolCalls: [call] })], [call]);
    expect(state.snapshot().status).toBe('awaiting-approval');
    state.decided(['del']);
    state.begin(true);
    apply(
      state,
      { type: 'tool-started', toolCallId: 'del', name: 'delete_note', args: call.args },
      {
        type: 'tool-finished',
        toolCallId: 'del',
        name: 'delete_note',
        output: 'Deleted k',
        message: toolMessage({ toolCallId: 'del', name: 'delete_note', content: 'Deleted k' }),
      },
      { type: 'text-delta', delta: 'Done.' },
    );
    const snapshot = state.snapshot();
    expect(snapshot.messages).toHaveLength(2);
    expect(snapshot.messages[1]?.parts).toMatchObject([
      { type: 'tool', state: 'output-available', output: 'Deleted k' },
      { type: 'text', text: 'Done.' },
    ]);
  });
});
