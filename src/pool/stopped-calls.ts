/**
 * What becomes of the calls a stopped worker held: the rule that a hostile call costs only
 * itself, kept apart from the pool that applies it (and testable without a worker).
 */
import type { ToolTimeoutError } from '../errors/tool-timeout-error';
import { type Culprit, WorkerCrashedError } from '../errors/worker-crashed-error';
import { WorkerStartError } from '../errors/worker-start-error';

/** What the rule needs to know of a call. */
export interface HeldCall {
  readonly id: number;
  readonly toolCall: { readonly id: string; readonly name: string };
  /** Times a worker was stopped while this call ran on it; a second is final. */
  readonly kills: number;
  /** Its time ran out while its worker was being stopped for another call. */
  readonly timedOut?: ToolTimeoutError | undefined;
}

export interface StoppedWorker<C extends HeldCall> {
  /** The unsettled calls it had been sent (posted or about to be), in the order sent. */
  sent: readonly C[];
  /** Ids of sent calls it never started: never posted, or posted and not begun (see `StartedCalls`). */
  unstarted: ReadonlySet<number>;
  /** False: it never came up (its script failed), so nothing it was given can run anywhere. */
  connected: boolean;
  /** Tools that say a call may run twice (`defineTool({ idempotent: true })`). */
  idempotent: ReadonlySet<string>;
  /** The call it was stopped for, when there is one. */
  culprit: Culprit | undefined;
  reason: string;
}

export interface Verdict<C extends HeldCall> {
  /** To send again, in their original order: never started, or re-run. */
  retry: C[];
  /** Of `retry`, how many had never started. */
  recovered: number;
  /** Of `retry`, the started calls that run once more (their tool is idempotent). */
  rerun: C[];
  /** Calls that fail, each with its error. */
  failed: [C, Error][];
  /** Tools to quarantine: the suspects of a crash no single call is blamed for. */
  suspects: string[];
}

/**
 * Decide each call's fate:
 * - not posted, or posted but never started: it runs elsewhere (nothing of it ran here), even
 *   when its own time ran out (the worker was held by another call: it is not to blame);
 * - started and out of time: it fails with its `ToolTimeoutError`; when no culprit was named
 *   (its time ran out before the page knew it had started), it is the culprit;
 * - started, on its first kill, its tool idempotent, and not the culprit: it runs once more;
 * - otherwise: `WorkerCrashedError`, naming the culprit (or, if one call alone was running,
 *   that call). A crash nobody is blamed for makes every call it was running a suspect.
 * A worker that never connected fails everything it was sent with `WorkerStartError`.
 *
 * Pure: it changes no call. The pool moves each as told (`PoolCall.requeue` counts a re-run's
 * kill and forgets a never-started call's timeout: its clock starts again elsewhere).
 */
export function judgeStoppedCalls<C extends HeldCall>(worker: StoppedWorker<C>): Verdict<C> {
  const { connected, reason } = worker;
  const verdict: Verdict<C> = { retry: [], recovered: 0, rerun: [], failed: [], suspects: [] };
  const started: C[] = [];
  let overdue: C | undefined;
  for (const call of worker.sent) {
    if (!connected) verdict.failed.push([call, new WorkerStartError({ reason })]);
    else if (worker.unstarted.has(call.id)) {
      verdict.recovered++;
      verdict.retry.push(call);
    } else if (call.timedOut) {
      overdue ??= call;
      verdict.failed.push([call, call.timedOut]);
    } else started.push(call);
  }
  let culprit = worker.culprit;
  if (connected && !culprit && overdue) {
    culprit = { toolCallId: overdue.toolCall.id, toolName: overdue.toolCall.name };
    verdict.suspects.push(overdue.toolCall.name);
  } else if (connected && !culprit) {
    for (const call of started) verdict.suspects.push(call.toolCall.name);
    const only = started.length === 1 ? started[0] : undefined;
    if (only) culprit = { toolCallId: only.toolCall.id, toolName: only.toolCall.name };
  }
  for (const call of started) {
    const { id: toolCallId, name: toolName } = call.toolCall;
    if (call.kills === 0 && worker.idempotent.has(toolName) && culprit?.toolCallId !== toolCallId) {
      verdict.rerun.push(call);
      verdict.retry.push(call);
    } else verdict.failed.push([call, new WorkerCrashedError({ toolName, toolCallId, reason, culprit })]);
  }
  verdict.retry.sort((a, b) => a.id - b.id);
  return verdict;
}
