import { type AnthropicThinkingBlock, anthropicStopReason, anthropicUsage } from '../../providers/anthropic';
import { num, type Obj, obj, str } from '../../providers/wire';
import { BaseDecoder, providerError } from '../stream-decoder';
import type { StreamPart } from '../stream-part';

/**
 * Anthropic Messages events. Block indexes are shared by text, thinking and tool_use blocks; a
 * no-argument call sends only `""` (→ `{}`); signed thinking blocks are kept in
 * `metadata.anthropic.thinking` for the next request.
 */
export class AnthropicDecoder extends BaseDecoder {
  readonly format = 'anthropic' as const;
  readonly #thinking = new Map<number, { thinking: string; signature: string }>();
  readonly #thinkingDone: AnthropicThinkingBlock[] = [];
  /** The `input` a tool_use block started with, used when no delta follows. */
  readonly #initialInput = new Map<string, unknown>();
  readonly #gotDelta = new Set<string>();
  #usage: Obj = {};

  protected handle(e: Obj): StreamPart[] {
    const index = num(e.index) ?? -1;
    const key = `b${index}`;
    switch (e.type) {
      case 'message_start': {
        const message = obj(e.message);
        this.builder.setId(message.id);
        this.#mergeUsage(message.usage);
        const model = str(message.model);
        if (model) this.builder.meta('anthropic', 'model', model);
        return [];
      }
      case 'content_block_start': {
        const block = obj(e.content_block);
        if (block.type === 'tool_use' || block.type === 'server_tool_use') {
          const input = block.input;
          if (
            input !== undefined &&
            !(typeof input === 'object' && input !== null && Object.keys(input).length === 0)
          ) {
            this.#initialInput.set(key, input);
          }
          return this.builder.start(key, str(block.id), str(block.name) ?? '');
        }
        if (block.type === 'text') return this.builder.text(str(block.text) ?? '');
        if (block.type === 'thinking') {
          this.#thinking.set(index, { thinking: str(block.thinking) ?? '', signature: str(block.signature) ?? '' });
          return this.builder.reasoning(str(block.thinking) ?? '');
        }
        if (block.type === 'redacted_thinking')
          this.#keepThinking({ type: 'redacted_thinking', data: str(block.data) ?? '' });
        return [];
      }
      case 'content_block_delta': {
        const delta = obj(e.delta);
        switch (delta.type) {
          case 'text_delta':
            return this.builder.text(str(delta.text) ?? '');
          case 'input_json_delta': {
            const text = str(delta.partial_json) ?? '';
            if (text) this.#gotDelta.add(key);
            return this.builder.args(key, text);
          }
          case 'thinking_delta': {
            const block = this.#thinking.get(index);
            if (block) block.thinking += str(delta.thinking) ?? '';
            return this.builder.reasoning(str(delta.thinking) ?? '');
          }
          case 'signature_delta': {
            const block = this.#thinking.get(index);
            if (block) block.signature += str(delta.signature) ?? '';
            return [];
          }
          default:
            return [];
        }
      }
      case 'content_block_stop': {
        const block = this.#thinking.get(index);
        if (block) {
          this.#thinking.delete(index);
          this.#keepThinking({ type: 'thinking', ...block });
        }
        if (!this.builder.isOpen(key)) return [];
        const parts: StreamPart[] = [];
        if (!this.#gotDelta.has(key) && this.#initialInput.has(key)) {
          parts.push(...this.builder.argsValue(key, this.#initialInput.get(key)));
        }
        return [...parts, ...this.builder.end(key)];
      }
      case 'message_delta': {
        const stop = anthropicStopReason(obj(e.delta).stop_reason);
        if (stop) this.builder.setStopReason(stop);
        this.#mergeUsage(e.usage);
        return [];
      }
      case 'message_stop':
        return [...this.builder.endAll(), ...this.builder.finishPart()];
      case 'error':
        return [providerError(e)];
      default:
        return []; // ping, and event types newer than this decoder
    }
  }

  #mergeUsage(raw: unknown): void {
    for (const [k, v] of Object.entries(obj(raw))) if (typeof v === 'number') this.#usage[k] = v;
    this.builder.setUsage(anthropicUsage(this.#usage));
  }

  #keepThinking(block: AnthropicThinkingBlock): void {
    this.#thinkingDone.push(block);
    this.builder.meta('anthropic', 'thinking', [...this.#thinkingDone]);
  }
}
