/**
 * MCP's tools and results in Moat's terms, as pure functions: a listed tool becomes a `ToolSpec`
 * (its name made one every provider accepts, its annotations deciding approval), and a
 * `tools/call` result a `ToolOutcome` (text for the model; images and documents as media beside
 * it; what a model cannot take, described).
 */
import type { ToolOutcome } from '../invoker/types';
import type { FilePart, ImagePart } from '../messages/types';
import { TOOL_NAME_PATTERN, type ToolSpec, validateToolSpec } from '../providers/tool-spec';
import type { McpCallResult, McpContent, McpTool } from './protocol';

/** Which of a server's tools to offer: names, or a test of each tool. Default: all. */
export type AllowTools = readonly string[] | ((tool: McpTool) => boolean);

/**
 * Which of a server's tools ask a person first, as the page says: `true` all, `false` none, or
 * these (by the server's names) whatever the server's hints say. Default: the server's hints.
 */
export type McpApproval = boolean | readonly string[];

export interface McpSpecs {
  specs: ToolSpec[];
  /** A spec's name → the server's name for the tool. */
  names: Map<string, string>;
  /** Tools left out, each with why (a schema no provider takes, say). */
  skipped: { name: string; reason: string }[];
}

/**
 * The specs of a server's tools. Names outside the providers' rule (`a.b`, longer than 64) are
 * rewritten (`a_b`), made unique. A tool asks for approval unless the server says it only reads
 * (`readOnlyHint`) or does nothing destructive (`destructiveHint: false`): the MCP spec's
 * defaults, under which an unannotated tool may destroy. The page's `approval` decides over the
 * hints: a remote server's word never takes away an approval the page asked for.
 *
 * `given` holds every name given before by the same source (spec name → the server's name), and
 * gets the new ones: across list changes a tool keeps its name, and a name never comes to mean
 * another tool (a call the model made from an older list finds its tool, or none).
 */
export function toSpecs(
  tools: readonly McpTool[],
  allow?: AllowTools,
  given: Map<string, string> = new Map(),
  approval?: McpApproval,
): McpSpecs {
  const specs: ToolSpec[] = [];
  const names = new Map<string, string>();
  const skipped: McpSpecs['skipped'] = [];
  const allowed =
    allow === undefined ? () => true : typeof allow === 'function' ? allow : (t: McpTool) => allow.includes(t.name);
  const before = new Map([...given].map(([spec, server]) => [server, spec]));
  const taken = (candidate: string, server: string) =>
    names.has(candidate) || (given.has(candidate) && given.get(candidate) !== server);
  for (const tool of tools) {
    if (!allowed(tool)) continue;
    const name = before.get(tool.name) ?? uniqueName(tool.name, (candidate) => taken(candidate, tool.name));
    if (names.has(name)) {
      skipped.push({ name: tool.name, reason: 'the server listed it twice' });
      continue;
    }
    const { annotations: hints } = tool;
    const spec: ToolSpec = {
      name,
      description: tool.description ?? tool.title ?? hints?.title ?? '',
      inputSchema: { type: 'object', ...tool.inputSchema },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      ...(asks(approval, tool) ? { needsApproval: true } : {}),
      ...(hints?.readOnlyHint === true ? { readOnly: true } : {}),
    };
    try {
      validateToolSpec(spec);
    } catch (error) {
      skipped.push({ name: tool.name, reason: (error as Error).message });
      continue;
    }
    names.set(name, tool.name);
    given.set(name, tool.name);
    specs.push(spec);
  }
  return { specs, names, skipped };
}

/**
 * Whether a tool asks first: the page's word when it gave one (a list only adds to the hints: a
 * remote server's hints never take an approval the page asked for away), else the hints.
 */
function asks(approval: McpApproval | undefined, tool: McpTool): boolean {
  if (typeof approval === 'boolean') return approval;
  if (approval?.includes(tool.name)) return true;
  const hints = tool.annotations;
  return hints?.readOnlyHint !== true && hints?.destructiveHint !== false;
}

function uniqueName(name: string, taken: (candidate: string) => boolean): string {
  const base = TOOL_NAME_PATTERN.test(name) ? name : name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
  let candidate = base;
  for (let n = 2; taken(candidate); n++) candidate = `${base.slice(0, 60)}_${n}`;
  return candidate;
}

/**
 * A `tools/call` result as the model will read it. Structured content is the text (JSON) unless
 * the tool also wrote text of its own, which the model then reads, the structured content kept
 * beside it as the message's `artifact`; `isError` makes an error message the model sees.
 */
export function toOutcome(result: McpCallResult): ToolOutcome {
  const texts: string[] = [];
  const media: (ImagePart | FilePart)[] = [];
  for (const block of result.content ?? []) {
    const part = mediaOf(block);
    if (part) media.push(part);
    else texts.push(describe(block));
  }
  const structured = result.structuredContent;
  const outcome: ToolOutcome =
    structured !== undefined && !result.isError && texts.every((text) => sameJSON(text, structured))
      ? { content: JSON.stringify(structured), kind: 'json' }
      : { content: texts.join('\n\n'), ...(structured === undefined ? {} : { artifact: structured }) };
  if (result.isError) outcome.status = 'error';
  if (media.length > 0) outcome.media = media;
  return outcome;
}

/** An image, or a PDF or image resource: what a model can see. */
function mediaOf(block: McpContent): ImagePart | FilePart | undefined {
  if (block.type === 'image' && typeof block.data === 'string')
    return { type: 'image', data: block.data, mediaType: block.mimeType };
  if (block.type !== 'resource' || typeof block.resource?.blob !== 'string') return undefined;
  const { blob, mimeType, uri } = block.resource;
  if (mimeType?.startsWith('image/')) return { type: 'image', data: blob, mediaType: mimeType };
  if (mimeType === 'application/pdf') {
    const filename = uri.split(/[/?#]/).filter(Boolean).pop();
    return { type: 'file', data: blob, mediaType: mimeType, ...(filename ? { filename } : {}) };
  }
  return undefined;
}

/** Text for the model: text as it is, the rest said in words. */
function describe(block: McpContent): string {
  switch (block.type) {
    case 'text':
      return String(block.text);
    case 'resource': {
      const { uri, mimeType, text, blob } = block.resource ?? {};
      const head = `[resource ${uri}${mimeType ? ` (${mimeType})` : ''}]`;
      if (typeof text === 'string') return `${head}\n${text}`;
      return `${head} ${typeof blob === 'string' ? Math.floor((blob.length * 3) / 4) : 0} bytes of binary data, not shown`;
    }
    case 'resource_link':
      return `[resource link: ${block.name} ${block.uri}${block.mimeType ? ` (${block.mimeType})` : ''}]${block.description ? ` ${block.description}` : ''}`;
    case 'audio':
      return `[audio (${block.mimeType}), not shown: models here take no audio]`;
    default:
      return `[content of type ${JSON.stringify((block as { type: unknown }).type)}, not shown]`;
  }
}

function sameJSON(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
