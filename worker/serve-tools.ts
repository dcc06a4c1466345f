/// <reference lib="webworker" />
import { describeValue } from '../src/errors/moat-error';
import { serializeError } from '../src/errors/serialize-error';
import { ToolNotFoundError } from '../src/errors/tool-not-found-error';
import type { DescribeAnswer } from '../src/pool/protocol';
import type { ToolSpec } from '../src/providers/tool-spec';
import { isToolDefinition, type ToolDefinition } from './define-tool';
import { describeTool } from './describe-tool';
import { executeTool } from './execute-tool';
import { sealedRuntime } from './sealed-runtime-hook';
import { serveCatalog, type ToolCatalog } from './tool-server';

/**
 * Serve these tools to a Moat worker pool: call it once, at the top level of the worker module.
 * Arguments are validated with each tool's zod schema here in the worker; results are converted
 * to text here too, so the page receives strings, not object graphs.
 *
 * In a sealed worker (`createWorkerPool({ worker: url })`) the tools go to Moat's runtime, which
 * was running before any module of the tools and alone speaks to the page; in a plain one, to
 * the server this copy of `moat-sdk/worker` brings.
 *
 * The store code (IndexedDB, idb, the query engine) is loaded when a tool first uses
 * `runtime.store`, not at start: a worker whose tools never touch it never loads it.
 *
 * @example serveTools([multiply, remember, countPrimes]);
 */
export function serveTools(tools: readonly ToolDefinition[]): void {
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
  const catalog: ToolCatalog = {
    names: [...byName.keys()],
    idempotent: tools.filter((t) => t.idempotent).map((t) => t.name),
    timeouts: Object.fromEntries(tools.flatMap((t) => (t.timeoutMs === undefined ? [] : [[t.name, t.timeoutMs]]))),
    describe: (): DescribeAnswer => {
      try {
        return { descriptors: tools.map(describeTool) };
      } catch (error) {
        return { error: serializeError(error) }; // keeps its class on the page
      }
    },
    run(call, context) {
      const tool = byName.get(call.name);
      if (!tool)
        throw new ToolNotFoundError({
          toolName: call.name,
          toolCallId: call.toolCallId,
          available: [...byName.keys()],
        });
      return executeTool(tool, call, {
        signal: context.signal,
        emit: context.emit,
        store: () => context.store(tool.storeNamespaces),
        tools: allSpecs,
      });
    },
  };
  (sealedRuntime() ?? serveCatalog)(catalog);
}
