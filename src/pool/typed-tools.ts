/**
 * Types only: a pool typed by the tools its worker module serves. The module exports its list,
 * the page imports only its type (nothing of the worker's code reaches the page):
 *
 *     // tools.worker.ts
 *     export const tools = [multiply, remember] as const;
 *     serveTools(tools);
 *     // the page
 *     import type { tools } from './tools.worker';
 *     const pool = createWorkerPool<typeof tools>({ worker: toolsUrl });
 *     const r = await pool.call({ id: 'c1', name: 'multiply', args: { a: 3, b: 12 } }); // checked
 *     resultValue(r); // number
 */
import type { ToolDefinition } from '../../worker/define-tool';
import type { WithArtifact, WithUpdate } from '../../worker/results';

/** The tools of a worker module, as `typeof tools` (any list of `defineTool` results). */
// biome-ignore lint/suspicious/noExplicitAny: any tool's arguments and result
export type ToolSet = readonly ToolDefinition<string, any, any>[];

/** The names a set serves (any string for an untyped pool). */
export type ToolName<T extends ToolSet> = T[number]['name'];

type Definition<T extends ToolSet, N> = Extract<T[number], { readonly name: N }>;

/** What a call to tool `N` sends (any JSON object for an untyped pool). */
export type ToolArgs<T extends ToolSet, N extends string> = string extends N
  ? Record<string, unknown>
  : Definition<T, N> extends ToolDefinition<string, infer A, unknown>
    ? A
    : never;

/**
 * What tool `N`'s call gives back, as `resultValue` reads it (`unknown` for an untyped pool):
 * what `run` returned, read back from its JSON; the result of a `withUpdate`; the text of a
 * `withArtifact` (its artifact rides beside it) or of a `{ content: parts }` (its images and
 * files ride beside it); `''` (or `null` with `resultFormat: 'json'`)
 * for nothing.
 */
export type ToolOutput<T extends ToolSet, N extends string> = string extends N
  ? unknown
  : Definition<T, N> extends ToolDefinition<string, unknown, infer R>
    ? Returned<R>
    : never;

/** A returned value as it comes back (only plain JSON data passes the worker's check). */
type Returned<R> =
  R extends WithUpdate<infer Inner>
    ? Returned<Inner>
    : // A parts result's `type`s widen to string where `run`'s return type is inferred.
      R extends WithArtifact | { content: string; artifact: unknown } | { content: readonly { type: string }[] }
      ? string
      : // biome-ignore lint/suspicious/noConfusingVoidType: a run that returns nothing is typed void
        R extends undefined | void
        ? '' | null
        : R;

/** A call of one of the set's tools, its arguments checked against that tool's. */
export type TypedToolCall<T extends ToolSet, N extends ToolName<T> = ToolName<T>> = {
  id: string;
  name: N;
  args: ToolArgs<T, N>;
};
