/**
 * The requests each provider accepts, checked the way its API does (a subset: what a client can
 * get wrong), and its own 400 error body for the ones it refuses. So request building is tested
 * by a server that says no, not only by a parser that says yes.
 */
import { anthropicBlock, geminiPart, ollamaImages, openAIChatParts, openAIResponsesParts } from './media-parts';
import { anthropicFormat, geminiFormat, ollamaFormat, openAIChatFormat, openAIResponsesFormat } from './output-format';
import { list, obj, type WireFormat } from './wire-format';

type Obj = Record<string, unknown>;
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The problem with a request body, in words, or undefined when it is fine. */
export function requestProblem(
  format: WireFormat,
  body: Obj,
  headers: Record<string, string | string[] | undefined>,
): string | undefined {
  switch (format) {
    case 'openai-chat':
      return openAIChat(body);
    case 'openai-responses':
      return openAIResponses(body);
    case 'anthropic':
      return anthropic(body, headers);
    case 'gemini':
      return gemini(body);
    case 'ollama':
      return ollama(body);
  }
}

/** The provider's error body for a status and message. */
export function errorBody(format: WireFormat, status: number, message: string): Obj {
  switch (format) {
    case 'openai-chat':
    case 'openai-responses':
      return {
        error: {
          message,
          type:
            status === 401
              ? 'invalid_api_key'
              : status === 429
                ? 'rate_limit_exceeded'
                : status >= 500
                  ? 'server_error'
                  : 'invalid_request_error',
          param: null,
          code: null,
        },
      };
    case 'anthropic':
      return {
        type: 'error',
        error: {
          type:
            status === 401
              ? 'authentication_error'
              : status === 429
                ? 'rate_limit_error'
                : status === 529
                  ? 'overloaded_error'
                  : status >= 500
                    ? 'api_error'
                    : 'invalid_request_error',
          message,
        },
      };
    case 'gemini':
      return {
        error: {
          code: status,
          message,
          status:
            status === 401
              ? 'UNAUTHENTICATED'
              : status === 429
                ? 'RESOURCE_EXHAUSTED'
                : status === 503
                  ? 'UNAVAILABLE'
                  : status >= 500
                    ? 'INTERNAL'
                    : 'INVALID_ARGUMENT',
        },
      };
    case 'ollama':
      return { error: message };
  }
}

function openAITools(tools: unknown, flat: boolean): string | undefined {
  if (tools === undefined) return undefined;
  if (!Array.isArray(tools)) return "Invalid type for 'tools': expected an array.";
  for (const [i, raw] of tools.entries()) {
    const t = obj(raw);
    if (t.type !== 'function') return `Invalid value for 'tools[${i}].type': expected 'function'.`;
    const fn = flat ? t : obj(t.function);
    if (typeof fn.name !== 'string' || !NAME.test(fn.name))
      return `Invalid 'tools[${i}]${flat ? '' : '.function'}.name': string does not match pattern.`;
    if (fn.parameters !== undefined && obj(fn.parameters).type !== 'object')
      return `Invalid schema for function '${fn.name}': schema must be a JSON Schema of 'type: "object"'.`;
  }
  return undefined;
}

function openAIChat(body: Obj): string | undefined {
  if (typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return "Invalid 'messages': expected a non-empty array.";
  const callIds = new Set<string>();
  /** The calls of the last assistant message not answered yet. */
  const unanswered = new Set<string>();
  for (const [i, raw] of messages.entries()) {
    const m = obj(raw);
    if (m.role !== 'tool' && unanswered.size > 0)
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...unanswered].join(', ')}`;
    if (!['system', 'developer', 'user', 'assistant', 'tool'].includes(String(m.role)))
      return `Invalid value: '${String(m.role)}'. Supported values are: 'system', 'assistant', 'user', 'tool', 'developer'.`;
    if (m.role === 'assistant') {
      if (m.content === null && !Array.isArray(m.tool_calls))
        return `Invalid 'messages[${i}]': assistant content is null without tool_calls.`;
      for (const [j, rawCall] of list(m.tool_calls).entries()) {
        const c = obj(rawCall);
        const fn = obj(c.function);
        if (
          typeof c.id !== 'string' ||
          c.type !== 'function' ||
          typeof fn.name !== 'string' ||
          typeof fn.arguments !== 'string'
        )
          return `Invalid 'messages[${i}].tool_calls[${j}]': expected { id, type: 'function', function: { name, arguments: string } }.`;
        callIds.add(c.id);
        unanswered.add(c.id);
      }
    } else if (m.role === 'tool') {
      if (typeof m.tool_call_id !== 'string' || !callIds.has(m.tool_call_id))
        return `Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.`;
      unanswered.delete(m.tool_call_id);
      // A tool message's content is text: a string or text parts.
      const problem = openAIChatParts(m.content, `messages[${i}].content`, true);
      if (problem) return problem;
    } else {
      const problem = openAIChatParts(m.content, `messages[${i}].content`, m.role !== 'user');
      if (problem) return problem;
    }
  }
  if (unanswered.size > 0)
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...unanswered].join(', ')}`;
  if (body.stream !== true) return 'This test server only streams: stream must be true.';
  return openAITools(body.tools, false) ?? openAIChatFormat(body);
}

function openAIResponses(body: Obj): string | undefined {
  if (typeof body.model !== 'string') return "Missing required parameter: 'model'.";
  if (!Array.isArray(body.input) || body.input.length === 0) return "Invalid 'input': expected a non-empty array.";
  const callIds = new Set<string>();
  for (const [i, raw] of body.input.entries()) {
    const item = obj(raw);
    if (item.type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string')
        return `Invalid 'input[${i}]': a function_call needs call_id, name and arguments (a string).`;
      callIds.add(item.call_id);
    } else if (item.type === 'function_call_output') {
      if (typeof item.call_id !== 'string' || !callIds.has(item.call_id))
        return `No tool call found for function call output with call_id ${String(item.call_id)}.`;
      const problem = openAIResponsesParts(item.output, `input[${i}].output`);
      if (problem) return problem;
    } else if (!['user', 'assistant', 'system', 'developer'].includes(String(item.role)))
      return `Invalid value for 'input[${i}].role': '${String(item.role)}'.`;
    else {
      const problem = openAIResponsesParts(item.content, `input[${i}].content`);
      if (problem) return problem;
    }
  }
  const answered = new Set(
    body.input
      .map(obj)
      .filter((item) => item.type === 'function_call_output')
      .map((item) => item.call_id),
  );
  for (const id of callIds) if (!answered.has(id)) return `No tool output found for function call ${id}.`;
  if (body.stream !== true) return 'This test server only streams: stream must be true.';
  return openAITools(body.tools, true) ?? openAIResponsesFormat(body);
}

function anthropic(body: Obj, headers: Record<string, string | string[] | undefined>): string | undefined {
  if (!headers['anthropic-version']) return 'anthropic-version: header is required';
  if (typeof body.model !== 'string') return 'model: Field required';
  if (typeof body.max_tokens !== 'number' || !Number.isInteger(body.max_tokens) || body.max_tokens < 1)
    return 'max_tokens: Field required';
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return 'messages: at least one message is required';
  if (body.system !== undefined && typeof body.system !== 'string' && !Array.isArray(body.system))
    return 'system: Input should be a valid string';
  let previous: Obj | undefined;
  for (const [i, raw] of messages.entries()) {
    const m = obj(raw);
    if (m.role !== 'user' && m.role !== 'assistant') return `messages.${i}.role: Input should be 'user' or 'assistant'`;
    if (i === 0 && m.role !== 'user') return 'messages: first message must use the "user" role';
    if (previous && previous.role === m.role)
      return `messages: roles must alternate between "user" and "assistant", but found multiple "${String(m.role)}" roles in a row`;
    const blocks = typeof m.content === 'string' ? [] : list(m.content).map(obj);
    if (typeof m.content !== 'string' && !Array.isArray(m.content))
      return `messages.${i}.content: Input should be a valid list`;
    if (m.role === 'assistant' && Array.isArray(m.content) && m.content.length === 0)
      return `messages.${i}: all messages must have non-empty content except for the optional final assistant message`;
    const used = new Set(
      list(previous?.content)
        .map(obj)
        .filter((b) => b.type === 'tool_use')
        .map((b) => String(b.id)),
    );
    const answered = new Set(blocks.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id)));
    const unanswered = [...used].filter((id) => !answered.has(id));
    if (unanswered.length > 0)
      return `messages.${i - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
    let sawText = false;
    for (const [j, block] of blocks.entries()) {
      const problem = anthropicBlock(block, `messages.${i}.content.${j}`);
      if (problem) return problem;
      if (block.type === 'tool_result') {
        if (sawText) return `messages.${i}: tool_result blocks must come before any other content`;
        if (!used.has(String(block.tool_use_id)))
          return `messages.${i}.content: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`;
      } else sawText = true;
      if (
        block.type === 'tool_use' &&
        (typeof block.id !== 'string' || typeof block.name !== 'string' || typeof block.input !== 'object')
      )
        return `messages.${i}.content: tool_use blocks need id, name and input`;
    }
    previous = m;
  }
  const dangling = list(previous?.content)
    .map(obj)
    .filter((b) => b.type === 'tool_use')
    .map((b) => String(b.id));
  if (dangling.length > 0)
    return `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${dangling.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;
  for (const [i, raw] of list(body.tools).entries()) {
    const t = obj(raw);
    if (typeof t.name !== 'string' || !NAME.test(t.name))
      return `tools.${i}.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`;
    if (obj(t.input_schema).type !== 'object') return `tools.${i}.input_schema.type: Input should be 'object'`;
  }
  const choice = body.tool_choice === undefined ? undefined : obj(body.tool_choice);
  if (choice && !['auto', 'any', 'tool', 'none'].includes(String(choice.type)))
    return "tool_choice.type: Input should be 'auto', 'any', 'tool' or 'none'";
  return anthropicFormat(body);
}

function gemini(body: Obj): string | undefined {
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0)
    return '* GenerateContentRequest.contents: contents is not specified';
  let calls = 0;
  for (const [i, raw] of contents.entries()) {
    const c = obj(raw);
    if (c.role !== 'user' && c.role !== 'model')
      return `* GenerateContentRequest.contents[${i}].role: Please use a valid role: user, model.`;
    const parts = list(c.parts);
    if (parts.length === 0) return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.`;
    for (const [j, rawPart] of parts.entries()) {
      const p = obj(rawPart);
      if (p.functionResponse !== undefined && !nonEmpty(obj(p.functionResponse).name))
        return `* GenerateContentRequest.contents[${i}].parts[${j}].function_response.name: Name cannot be empty.`;
      if (p.functionCall !== undefined && !nonEmpty(obj(p.functionCall).name))
        return `* GenerateContentRequest.contents[${i}].parts[${j}].function_call.name: Name cannot be empty.`;
      const problem = geminiPart(p, `GenerateContentRequest.contents[${i}].parts[${j}]`);
      if (problem) return problem;
    }
    const responses = parts.filter((p) => obj(p).functionResponse !== undefined).length;
    if (responses !== calls)
      return `* GenerateContentRequest.contents[${i}]: Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.`;
    calls = parts.filter((p) => obj(p).functionCall !== undefined).length;
  }
  if (calls > 0)
    return '* GenerateContentRequest.contents: Please ensure that the function call turn is followed by a function response turn.';
  for (const [i, raw] of list(body.tools).entries()) {
    for (const [j, rawFn] of list(obj(raw).functionDeclarations).entries()) {
      const fn = obj(rawFn);
      if (typeof fn.name !== 'string' || !NAME.test(fn.name))
        return `* GenerateContentRequest.tools[${i}].function_declarations[${j}].name: Invalid function name.`;
    }
  }
  return geminiFormat(body);
}

function nonEmpty(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

function ollama(body: Obj): string | undefined {
  if (typeof body.model !== 'string') return 'model is required';
  if (!Array.isArray(body.messages)) return 'messages must be an array';
  for (const raw of body.messages) {
    const m = obj(raw);
    if (!['system', 'user', 'assistant', 'tool'].includes(String(m.role))) return `invalid role: ${String(m.role)}`;
    for (const c of list(m.tool_calls))
      if (typeof obj(obj(c).function).arguments !== 'object') return 'tool call arguments must be an object';
    const problem = ollamaImages(m.images);
    if (problem) return problem;
  }
  return ollamaFormat(body);
}
