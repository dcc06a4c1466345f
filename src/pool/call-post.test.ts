import { describe, expect, it } from 'vitest';
import { postCalls } from './call-post';
import type { CallRequest } from './protocol';

const call = (id: number, args: Record<string, unknown> = { i: id }): CallRequest => ({
  id,
  toolCallId: `call_${id}`,
  name: 'add',
  args,
});

/** A post that clones like postMessage (throws on a function) and records what went. */
function recorder() {
  const posted: CallRequest[][] = [];
  return {
    posted,
    post: (batch: CallRequest[]) => {
      posted.push(structuredClone(batch));
    },
  };
}

describe('postCalls', () => {
  it('sends a tick of calls as one message', () => {
    const { posted, post } = recorder();
    const calls = [call(1), call(2), { ...call(3), context: { user: 'u' } }];
    expect(postCalls(calls, post)).toEqual({ sent: calls, unsendable: [] });
    expect(posted).toEqual([calls]);
  });

  it('sends the others one by one, in order, when one cannot be cloned, and reports it', () => {
    const { posted, post } = recorder();
    const bad = call(2, { fn: () => 1 });
    const result = postCalls([call(1), bad, call(3)], post);
    expect(result.sent.map((c) => c.id)).toEqual([1, 3]);
    expect(result.unsendable).toHaveLength(1);
    const [request, error] = result.unsendable[0] ?? [];
    expect(request).toBe(bad);
    expect((error as Error).name).toBe('DataCloneError');
    expect(posted).toEqual([[call(1)], [call(3)]]);
  });
});
