/**
 * A tiny llama model written as a GGUF file, so that tests run real llama.cpp inference with no
 * download: two layers of seeded random weights (all F32), a byte-level SentencePiece vocabulary
 * (the 256 byte tokens, printable ASCII, ChatML's control tokens and `<tool_call>`) and a ChatML
 * chat template (with no tool syntax by default; `TOOLS_CHAT_TEMPLATE` has Qwen's). Its answers are noise; under a grammar they are well-formed noise. Pure: runs in Node
 * and in the browser.
 *
 * The format (github.com/ggml-org/ggml docs/gguf.md): "GGUF", version 3, the tensor and key counts,
 * the metadata key-value pairs, each tensor's name, shape, type and offset, then the tensors' data,
 * each aligned to 32 bytes.
 */

export interface TinyGGUFOptions {
  /** Seeds the weights; the same seed writes the same bytes. Default 1. */
  seed?: number;
  /** Default 2. */
  layers?: number;
  /** Default 64. */
  embedding?: number;
  /** `tokenizer.chat_template`. Default `PLAIN_CHAT_TEMPLATE`. */
  chatTemplate?: string;
  /**
   * Instead of random weights, a model that always answers with this call in Qwen's syntax:
   * `<tool_call>`, a newline, this text (one token of the vocabulary), `</tool_call>`, the end of
   * the turn. Its layers add nothing and each token's embedding picks the next token (a bigram
   * table): what the template mode's test needs, a call llama.cpp's own parser reads.
   */
  scriptedCall?: string;
}

/**
 * ChatML with no tool syntax (the word does not appear in it): Moat's local client then calls
 * tools through a grammar of its own (`toolCalls: 'grammar'`).
 */
export const PLAIN_CHAT_TEMPLATE =
  "{% for m in messages %}<|im_start|>{{ m['role'] }}\n{{ m['content'] }}<|im_end|>\n{% endfor %}" +
  '{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}';

/**
 * ChatML with tools in the system prompt and each call as `<tool_call>{"name", "arguments"}</tool_call>`
 * (the shape of Qwen 2.5's template, written here): llama.cpp reads the call syntax from the
 * template and builds the grammar that holds the model to it.
 */
export const TOOLS_CHAT_TEMPLATE = `{%- if tools %}<|im_start|>system
{% if messages[0]['role'] == 'system' %}{{ messages[0]['content'] }}

{% endif %}You may call one or more functions. Their signatures:
<tools>
{% for tool in tools %}{{ tool | tojson }}
{% endfor %}</tools>
For each call, return <tool_call>{"name": <function-name>, "arguments": <args-json-object>}</tool_call><|im_end|>
{% elif messages[0]['role'] == 'system' %}<|im_start|>system
{{ messages[0]['content'] }}<|im_end|>
{% endif %}
{%- for message in messages %}
{%- if message.role == 'user' or (message.role == 'system' and not loop.first) %}<|im_start|>{{ message.role }}
{{ message.content }}<|im_end|>
{% elif message.role == 'assistant' %}<|im_start|>assistant
{% if message.tool_calls %}{% for tool_call in message.tool_calls %}{% if tool_call.function is defined %}{% set tool_call = tool_call.function %}{% endif %}<tool_call>
{"name": "{{ tool_call.name }}", "arguments": {{ tool_call.arguments | tojson }}}
</tool_call>{% endfor %}{% else %}{{ message.content }}{% endif %}<|im_end|>
{% elif message.role == 'tool' %}<|im_start|>user
<tool_response>
{{ message.content }}
</tool_response><|im_end|>
{% endif %}
{%- endfor %}
{%- if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;

const ALIGNMENT = 32;
/** `<|im_end|>`: the end of a turn. */
const IM_END = 4;

/** GGUF value types (gguf.md). */
const T = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;

type Value =
  | { type: 'u32'; value: number }
  | { type: 'i32'; value: number }
  | { type: 'f32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; of: 'string'; value: string[] }
  | { type: 'array'; of: 'f32' | 'i32'; value: number[] };

interface Tensor {
  name: string;
  /** ggml order: the fastest-varying dimension first. */
  shape: number[];
  data: Float32Array;
}

/** The model's bytes. */
export function tinyGGUF(options: TinyGGUFOptions = {}): Uint8Array<ArrayBuffer> {
  const layers = options.layers ?? 2;
  const embd = options.embedding ?? 64;
  const heads = 4;
  const ff = embd * 2;
  const tokens = vocabulary();
  const call = options.scriptedCall;
  if (call !== undefined) tokens.push({ text: call, score: 0, kind: USER_DEFINED });
  const nVocab = tokens.length;
  const random = mulberry32(options.seed ?? 1);
  const weights = (...shape: number[]) => {
    const data = new Float32Array(shape.reduce((a, b) => a * b, 1));
    for (let i = 0; i < data.length; i++) data[i] = (random() * 2 - 1) * 0.2;
    return data;
  };
  const ones = (n: number) => new Float32Array(n).fill(1);

  const tensors: Tensor[] = [
    { name: 'token_embd.weight', shape: [embd, nVocab], data: weights(embd, nVocab) },
    { name: 'output_norm.weight', shape: [embd], data: ones(embd) },
    { name: 'output.weight', shape: [embd, nVocab], data: weights(embd, nVocab) },
  ];
  if (call !== undefined) scriptCall(tensors, embd, nVocab);
  for (let i = 0; i < layers; i++) {
    const b = `blk.${i}`;
    // A scripted model's layers add nothing: each position's state is its token's embedding.
    const w = call === undefined ? weights : (...shape: number[]) => new Float32Array(shape.reduce((a, b) => a * b, 1));
    tensors.push(
      { name: `${b}.attn_norm.weight`, shape: [embd], data: ones(embd) },
      { name: `${b}.attn_q.weight`, shape: [embd, embd], data: weights(embd, embd) },
      { name: `${b}.attn_k.weight`, shape: [embd, embd], data: weights(embd, embd) },
      { name: `${b}.attn_v.weight`, shape: [embd, embd], data: weights(embd, embd) },
      { name: `${b}.attn_output.weight`, shape: [embd, embd], data: w(embd, embd) },
      { name: `${b}.ffn_norm.weight`, shape: [embd], data: ones(embd) },
      { name: `${b}.ffn_gate.weight`, shape: [embd, ff], data: weights(embd, ff) },
      { name: `${b}.ffn_up.weight`, shape: [embd, ff], data: weights(embd, ff) },
      { name: `${b}.ffn_down.weight`, shape: [ff, embd], data: w(ff, embd) },
    );
  }

  const metadata: [string, Value][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'moat-tiny-test' }],
    ['general.alignment', { type: 'u32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'u32', value: 32768 }],
    ['llama.embedding_length', { type: 'u32', value: embd }],
    ['llama.block_count', { type: 'u32', value: layers }],
    ['llama.feed_forward_length', { type: 'u32', value: ff }],
    ['llama.attention.head_count', { type: 'u32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'u32', value: heads }],
    ['llama.rope.dimension_count', { type: 'u32', value: embd / heads }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'f32', value: 1e-5 }],
    ['llama.vocab_size', { type: 'u32', value: nVocab }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', value: tokens.map((t) => t.text) }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'f32', value: tokens.map((t) => t.score) }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'i32', value: tokens.map((t) => t.kind) }],
    ['tokenizer.ggml.unknown_token_id', { type: 'u32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'u32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'u32', value: IM_END }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: false }],
    // No space before each piece of text: the grammar's literals must match the tokens' text exactly.
    ['tokenizer.ggml.add_space_prefix', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: options.chatTemplate ?? PLAIN_CHAT_TEMPLATE }],
  ];
  return write(metadata, tensors);
}

/** Token ids the scripted call uses (see `vocabulary`). */
const IM_END_ID = 4;
const TOOL_CALL = 5;
const TOOL_CALL_END = 6;
const NEWLINE = 7 + 0x0a; // <0x0A>, after the 7 named tokens

/**
 * The bigram table of a scripted call: the embedding of each token that matters is a basis vector
 * of its own, and the output row for it scores the token that follows. Every other token's
 * embedding is zero (all scores equal). After a newline the call's opening comes first and the call
 * itself second: the grammar allows the second where it refuses the first.
 */
function scriptCall(tensors: Tensor[], embd: number, nVocab: number): void {
  const [tokenEmbd, , output] = tensors as [Tensor, Tensor, Tensor];
  tokenEmbd.data.fill(0);
  output.data.fill(0);
  const callToken = nVocab - 1;
  const next: [number, [number, number][]][] = [
    [
      NEWLINE,
      [
        [TOOL_CALL, 10],
        [callToken, 9],
      ],
    ],
    [TOOL_CALL, [[NEWLINE, 10]]],
    [
      callToken,
      [
        [TOOL_CALL_END, 10],
        [NEWLINE, 9],
      ],
    ],
    [TOOL_CALL_END, [[IM_END_ID, 10]]],
  ];
  next.forEach(([token, scores], k) => {
    tokenEmbd.data[token * embd + k] = 1;
    // RMS norm scales a basis vector by sqrt(embd): divide it out of the scores.
    for (const [to, score] of scores) output.data[to * embd + k] = score / Math.sqrt(embd);
  });
}

/** Token kinds (llama.cpp's LLAMA_TOKEN_TYPE_*). */
const NORMAL = 1;
const UNKNOWN = 2;
const CONTROL = 3;
const USER_DEFINED = 4;
const BYTE = 6;

function vocabulary(): { text: string; score: number; kind: number }[] {
  const tokens = [
    { text: '<unk>', score: 0, kind: UNKNOWN },
    { text: '<s>', score: 0, kind: CONTROL },
    { text: '</s>', score: 0, kind: CONTROL },
    { text: '<|im_start|>', score: 0, kind: USER_DEFINED },
    { text: '<|im_end|>', score: 0, kind: CONTROL },
    { text: '<tool_call>', score: 0, kind: USER_DEFINED },
    { text: '</tool_call>', score: 0, kind: USER_DEFINED },
  ];
  for (let b = 0; b < 256; b++)
    tokens.push({ text: `<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`, score: 0, kind: BYTE });
  // SentencePiece writes a space as U+2581.
  tokens.push({ text: '\u2581', score: -1, kind: NORMAL });
  for (let c = 33; c < 127; c++) tokens.push({ text: String.fromCharCode(c), score: -1, kind: NORMAL });
  return tokens;
}

/** A small seeded generator: the same seed, the same model. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function write(metadata: [string, Value][], tensors: Tensor[]): Uint8Array<ArrayBuffer> {
  const out = new Writer();
  out.bytes(new TextEncoder().encode('GGUF'));
  out.u32(3);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    out.value(value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.shape.length);
    for (const dim of tensor.shape) out.u64(dim);
    out.u32(0); // GGML_TYPE_F32
    out.u64(offset);
    offsets.push(offset);
    offset = align(offset + tensor.data.byteLength);
  }
  out.pad();
  for (const tensor of tensors) {
    out.bytes(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, tensor.data.byteLength));
    out.pad();
  }
  return out.done();
}

const align = (n: number) => Math.ceil(n / ALIGNMENT) * ALIGNMENT;

class Writer {
  #chunks: Uint8Array[] = [];
  #length = 0;
  #scratch = new DataView(new ArrayBuffer(8));

  bytes(b: Uint8Array): void {
    this.#chunks.push(b.slice());
    this.#length += b.byteLength;
  }
  #fixed(size: number, set: (view: DataView) => void): void {
    set(this.#scratch);
    this.bytes(new Uint8Array(this.#scratch.buffer, 0, size));
  }
  u32(n: number): void {
    this.#fixed(4, (v) => v.setUint32(0, n, true));
  }
  i32(n: number): void {
    this.#fixed(4, (v) => v.setInt32(0, n, true));
  }
  f32(n: number): void {
    this.#fixed(4, (v) => v.setFloat32(0, n, true));
  }
  u64(n: number): void {
    this.#fixed(8, (v) => v.setBigUint64(0, BigInt(n), true));
  }
  string(s: string): void {
    const b = new TextEncoder().encode(s);
    this.u64(b.byteLength);
    this.bytes(b);
  }
  value(v: Value): void {
    this.u32(T[v.type]);
    if (v.type === 'u32') this.u32(v.value);
    else if (v.type === 'i32') this.i32(v.value);
    else if (v.type === 'f32') this.f32(v.value);
    else if (v.type === 'bool') this.bytes(new Uint8Array([v.value ? 1 : 0]));
    else if (v.type === 'string') this.string(v.value);
    else {
      this.u32(T[v.of]);
      this.u64(v.value.length);
      for (const item of v.value) {
        if (v.of === 'string') this.string(item as string);
        else if (v.of === 'f32') this.f32(item as number);
        else this.i32(item as number);
      }
    }
  }
  pad(): void {
    const padding = align(this.#length) - this.#length;
    if (padding > 0) this.bytes(new Uint8Array(padding));
  }
  done(): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(this.#length);
    let at = 0;
    for (const chunk of this.#chunks) {
      out.set(chunk, at);
      at += chunk.byteLength;
    }
    return out;
  }
}
