/**
 * The SDK's protocol server for one MCP session (or one stateless request), serving tools.ts.
 *
 * It is the low-level `Server`, not `McpServer`, for two things McpServer cannot do: a paginated
 * tools/list (McpServer always lists every tool on one page), and a tool list shared by every
 * session of the running server, changed by `add_tool` with exactly one `tools/list_changed`
 * sent on the calling request's stream (McpServer's registerTool would send its own to each
 * session's GET stream as well). The JSON Schemas still come from the SDK's zod converter, as
 * McpServer makes them.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { allTools, findTool, type TestTool, type ToolState } from './tools';

/** Tools per tools/list page: fewer than there are, so a client that ignores `nextCursor` misses some. */
export const PAGE_SIZE = 3;

export function sessionServer(state: ToolState): Server {
  const server = new Server(
    { name: 'moat-test-mcp', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } },
  );

  server.setRequestHandler(ListToolsRequestSchema, ({ params }) => {
    const tools = allTools(state);
    const start = params?.cursor === undefined ? 0 : decodeCursor(params.cursor, tools.length);
    const end = start + PAGE_SIZE;
    const page = { tools: tools.slice(start, end).map(describe) };
    return end < tools.length ? { ...page, nextCursor: encodeCursor(end) } : page;
  });

  server.setRequestHandler(CallToolRequestSchema, async ({ params }, extra) => {
    const tool = findTool(state, params.name);
    // An unknown tool is a protocol error (the spec's example); bad arguments are a tool error,
    // as McpServer reports them, so that a model can read them and try again.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool '${params.name}'`);
    const args = tool.input.safeParse(params.arguments ?? {});
    if (!args.success) {
      const problem = `Invalid arguments for tool '${params.name}': ${z.prettifyError(args.error)}`;
      return { content: [{ type: 'text', text: problem }], isError: true };
    }
    return tool.run(args.data, extra, state);
  });

  return server;
}

/** A tool as tools/list shows it. */
function describe(tool: TestTool): Tool {
  const listed: Tool = { name: tool.name, description: tool.description, inputSchema: jsonSchema(tool.input, 'input') };
  if (tool.output) listed.outputSchema = jsonSchema(tool.output, 'output');
  if (tool.annotations) listed.annotations = tool.annotations;
  return listed;
}

function jsonSchema(schema: z.ZodObject, pipeStrategy: 'input' | 'output') {
  // The converter's type is a plain record; a z.object always gives `type: 'object'`.
  return toJsonSchemaCompat(schema, { pipeStrategy }) as Tool['inputSchema'];
}

// The cursor is opaque to clients: a base64url'd offset. Tools are only ever appended, so an
// offset stays valid while tools are added.
function encodeCursor(offset: number): string {
  return Buffer.from(`offset:${offset}`).toString('base64url');
}

function decodeCursor(cursor: string, count: number): number {
  const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  const offset = Number(match?.[1] ?? Number.NaN);
  if (!(offset >= 0 && offset <= count)) throw new McpError(ErrorCode.InvalidParams, `Invalid cursor '${cursor}'`);
  return offset;
}
