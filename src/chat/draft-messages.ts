/**
 * The chat's messages as an immutable tree edited in place: between two snapshots only the
 * objects on the path to a change are copied, once each (an object made since the last snapshot
 * is changed in place), so a stream of thousands of deltas costs one copy of the last message
 * per snapshot, never a copy of the conversation per delta. It also knows where each call's part
 * is, under its caller when a tool made the call, so an event for a call finds it at once.
 */
import type { UIMessage, UIPart, UIToolPart } from './types';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
/** An object of the tree being changed: its fields writable (an array: its items). */
export type Draft<T> = T extends readonly (infer U)[] ? U[] : Mutable<T>;

/** Where a call's part is: in which message, and under which call when another tool made it. */
interface CallPlace {
  at: number;
  parent?: string;
}

export class DraftMessages {
  #messages: readonly UIMessage[] = [];
  /** Objects made since the last snapshot: changed in place, not copied again. */
  #fresh = new WeakSet<object>();
  #calls = new Map<string, CallPlace>();
  readonly #touched: () => void;

  /** `touched` is called before each change. */
  constructor(touched: () => void) {
    this.#touched = touched;
  }

  /** The messages as they stand (frozen by the next `seal()`). */
  get messages(): readonly UIMessage[] {
    return this.#messages;
  }

  /** A snapshot is taken of the messages as they stand: from now on a change copies them. */
  seal(): readonly UIMessage[] {
    this.#fresh = new WeakSet();
    return this.#messages;
  }

  /** Other messages altogether (a thread opened), their calls indexed. */
  replace(messages: readonly UIMessage[]): void {
    this.#touched();
    this.#messages = messages;
    this.#calls = new Map();
    messages.forEach((m, at) => {
      for (const part of m.parts) if (part.type === 'tool') this.#index(part, at);
    });
  }

  /** Whether the chat shows a part for this call. */
  hasCall(id: string): boolean {
    return this.#calls.has(id);
  }

  /** A new object of the tree, changed in place until the next snapshot. */
  new<T extends object>(value: T): T {
    this.#fresh.add(value);
    return value;
  }

  /** The object itself when it was made since the last snapshot, else a copy to change. */
  own<T extends object>(value: T): T {
    if (this.#fresh.has(value)) return value;
    return this.new((Array.isArray(value) ? [...value] : { ...value }) as T);
  }

  ownMessages(): UIMessage[] {
    this.#touched();
    const messages = this.own(this.#messages as UIMessage[]);
    this.#messages = messages;
    return messages;
  }

  ownMessage(at: number): Draft<UIMessage> {
    const messages = this.ownMessages();
    const message = this.own(messages[at] as UIMessage) as Draft<UIMessage>;
    messages[at] = message;
    return message;
  }

  /** A message's parts, to be changed (made its own first). */
  ownParts(at: number): UIPart[] {
    const message = this.ownMessage(at);
    const parts = this.own(message.parts as UIPart[]);
    message.parts = parts;
    return parts;
  }

  partsOf(at: number): readonly UIPart[] {
    return this.#messages[at]?.parts ?? [];
  }

  addPart(at: number, part: UIPart): void {
    this.ownParts(at).push(this.new(part));
    if (part.type === 'tool') this.#index(part, at);
  }

  /** The calls of these parts (and the calls they made) are no longer shown. */
  unindex(parts: readonly UIPart[]): void {
    for (const part of parts) {
      if (part.type !== 'tool') continue;
      this.#calls.delete(part.toolCallId);
      this.unindex(part.children ?? []);
    }
  }

  /**
   * Change a call's part, made first if the chat has not seen the call: under its caller when it
   * has one the chat shows, else at the end of the message `at()` gives.
   */
  toolOrNew(
    id: string,
    name: string,
    parent: string | undefined,
    at: () => number,
    change: (part: Draft<UIToolPart>) => void,
  ): void {
    if (!this.#calls.has(id)) {
      const part = this.new<UIToolPart>({
        type: 'tool',
        toolCallId: id,
        toolName: name,
        state: 'input-available',
        progress: [],
      });
      const caller = parent === undefined ? undefined : this.#calls.get(parent);
      if (parent !== undefined && caller) {
        this.tool(parent, (holder) => {
          holder.children = [...(holder.children ?? []), part];
        });
        this.#calls.set(id, { at: caller.at, parent });
      } else this.addPart(at(), part);
    }
    this.tool(id, change);
  }

  /** Change a call's part, copying it and what holds it (its message, its caller's parts) once per snapshot. */
  tool(id: string, change: (part: Draft<UIToolPart>) => void): void {
    const place = this.#calls.get(id);
    if (!place) return;
    const chain = [id];
    for (let up = place.parent; up !== undefined; up = this.#calls.get(up)?.parent) chain.unshift(up);
    let list = this.ownParts(place.at);
    let part: Draft<UIToolPart> | undefined;
    for (const link of chain) {
      const at = list.findIndex((p) => p.type === 'tool' && p.toolCallId === link);
      if (at < 0) return;
      part = this.own(list[at] as UIToolPart) as Draft<UIToolPart>;
      list[at] = part;
      if (link !== id) {
        list = this.own((part.children ?? []) as UIToolPart[]) as UIPart[];
        part.children = list as UIToolPart[];
      }
    }
    if (part) change(part);
  }

  #index(part: UIToolPart, at: number, parent?: string): void {
    this.#calls.set(part.toolCallId, parent === undefined ? { at } : { at, parent });
    for (const child of part.children ?? []) this.#index(child, at, part.toolCallId);
  }
}
