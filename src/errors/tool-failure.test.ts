import { describe, expect, it } from 'vitest';
import { NetworkDeniedError } from './network-denied-error';
import { PoolQueueFullError } from './pool-queue-full-error';
import { reviveError, serializeError } from './serialize-error';
import { ToolDeniedError } from './tool-denied-error';
import { ToolExecutionError } from './tool-execution-error';
import { failureFromText, toolFailure, toolFailureFrom } from './tool-failure';
import { ToolInputValidationError } from './tool-input-validation-error';
import { ToolNotFoundError } from './tool-not-found-error';
import { ToolOutputError } from './tool-output-error';
import { ToolOutputLimitError } from './tool-output-limit-error';
import { ToolTimeoutError } from './tool-timeout-error';
import { WorkerCrashedError } from './worker-crashed-error';

const call = { toolName: 'weather', toolCallId: 'call_7_mwz7fmpu' };

const cases: [Error, string, string][] = [
  [new ToolTimeoutError({ ...call, timeoutMs: 1500 }), 'timeout', 'Timed out after 1.5 s.'],
  [new ToolDeniedError({ ...call, reason: 'keep it' }), 'denied', 'Not approved: keep it.'],
  [
    new NetworkDeniedError({ ...call, url: 'https://api.example.com/v1?q=1', api: 'fetch' }),
    'network-denied',
    'Not allowed to reach api.example.com.',
  ],
  [
    new ToolInputValidationError({ ...call, issues: [{ path: ['city'], message: 'Expected string' }] }),
    'invalid-input',
    "The model's arguments did not fit the tool (city: Expected string).",
  ],
  [new ToolNotFoundError({ ...call, available: ['time'] }), 'not-found', "No tool named 'weather' is offered."],
  [
    new WorkerCrashedError({ ...call, reason: 'out of memory' }),
    'crashed',
    "The worker running 'weather' stopped: out of memory",
  ],
  [
    new WorkerCrashedError({ ...call, reason: 'stopped', culprit: { toolCallId: 'call_1', toolName: 'loop' } }),
    'crashed',
    "Its worker was stopped for another call ('loop'); it was not run again.",
  ],
  [
    new ToolOutputLimitError({ ...call, limit: 'result', maxSize: 100 }),
    'output-limit',
    'It sent back more than the page accepts.',
  ],
  [
    new ToolOutputError({ ...call, reason: 'not JSON' }),
    'invalid-output',
    'It sent back a result the page cannot use.',
  ],
  [new PoolQueueFullError({ maxQueue: 5 }), 'unavailable', 'Too many calls are waiting: try again later.'],
  [new ToolExecutionError({ ...call, cause: new Error('kaboom') }), 'failed', 'Failed: kaboom'],
  [new DOMException('The chat was stopped', 'AbortError'), 'stopped', 'Stopped.'],
  [
    new ToolExecutionError({ ...call, cause: new DOMException('The chat was stopped', 'AbortError') }),
    'stopped',
    'Stopped.',
  ],
  [new TypeError(`x is not a function (call ${call.toolCallId})`), 'failed', 'Failed: x is not a function'],
];

describe('toolFailure', () => {
  it('reads the kind from the class, and writes a sentence with no call id', () => {
    for (const [error, kind, message] of cases) {
      expect(toolFailure(error)).toEqual({ kind, message });
      expect(toolFailure(error).message).not.toContain(call.toolCallId);
    }
  });

  it('reads an error revived from its envelope (a worker, postMessage, storage) the same', () => {
    for (const [error] of cases) {
      const trip = reviveError(JSON.parse(JSON.stringify(serializeError(error))));
      expect(toolFailure(trip)).toEqual(toolFailure(error));
    }
  });

  it('keeps a long message short', () => {
    expect(toolFailure(new Error('x'.repeat(5000))).message).toHaveLength(300);
  });

  it('reads stored data back only when it is a failure', () => {
    expect(toolFailureFrom({ kind: 'timeout', message: 'Timed out.' })).toEqual({
      kind: 'timeout',
      message: 'Timed out.',
    });
    for (const bad of [
      null,
      'timeout',
      { kind: 'bogus', message: '' },
      { kind: 'timeout' },
      { kind: 'timeout', message: 1 },
    ])
      expect(toolFailureFrom(bad)).toBeUndefined();
  });

  it('a failure read from a text alone drops the advice and call ids meant for the model', () => {
    expect(
      failureFromText(`Error: Tool 'x' (call ${call.toolCallId}) failed: kaboom\n Please fix your mistakes.`),
    ).toEqual({
      kind: 'failed',
      message: "Tool 'x' failed: kaboom",
    });
    expect(failureFromText('')).toEqual({ kind: 'failed', message: 'Failed.' });
  });
});
