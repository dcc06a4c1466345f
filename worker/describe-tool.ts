import type { ToolDescriptor } from '../src/pool/protocol';
import { toolSpec } from '../src/providers/zod-spec';
import type { ToolDefinition } from './define-tool';

const described = new WeakMap<ToolDefinition, ToolDescriptor>();

/**
 * What the page learns of a tool: its spec (the JSON Schema of its input, by `z.toJSONSchema`)
 * and what it declares (state, store namespaces). Built once per tool, when first asked (the
 * conversion costs milliseconds: not at start-up); throws `InvalidToolSpecError` when a schema
 * cannot be written as JSON Schema.
 */
export function describeTool(tool: ToolDefinition): ToolDescriptor {
  let descriptor = described.get(tool);
  if (descriptor) return descriptor;
  const { name, description, input, output } = tool;
  descriptor = { spec: toolSpec(output ? { name, description, input, output } : { name, description, input }) };
  if (tool.needsApproval) descriptor.spec.needsApproval = true;
  if (tool.readOnly) descriptor.spec.readOnly = true;
  if (tool.state) descriptor.state = tool.state;
  if (tool.idempotent) descriptor.idempotent = true;
  if (tool.storeNamespaces) descriptor.store = { namespaces: tool.storeNamespaces.map((ns) => [...ns]) };
  described.set(tool, descriptor);
  return descriptor;
}
