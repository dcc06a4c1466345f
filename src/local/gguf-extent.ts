/**
 * How many bytes a GGUF file must have: where its last tensor's data ends, as its header says.
 * llama.cpp in wllama reads the file lazily and does not know a Blob cut short until inference
 * reads past its end; this reads the header (its metadata is skipped, not decoded) and answers
 * before anything loads. `undefined` when a tensor's type is one this table does not know.
 */
export async function ggufExtent(blob: Blob): Promise<number | undefined> {
  const r = new BlobReader(blob);
  if ((await r.u32()) !== 0x46554747) throw new RangeError('not a GGUF file');
  const version = await r.u32();
  if (version < 2) throw new RangeError(`GGUF version ${version} is not supported`);
  const tensors = await r.u64();
  const keys = await r.u64();
  let alignment = 32;
  for (let i = 0; i < keys; i++) {
    const key = await r.string();
    const type = await r.u32();
    if (key === 'general.alignment' && type === 4) alignment = await r.u32();
    else await r.skipValue(type);
  }
  let end = 0;
  let unknown = false;
  for (let i = 0; i < tensors; i++) {
    await r.string();
    const dims = await r.u32();
    let elements = 1;
    for (let d = 0; d < dims; d++) elements *= await r.u64();
    const type = await r.u32();
    const offset = await r.u64();
    const layout = TYPE_LAYOUT[type];
    if (!layout) unknown = true;
    else end = Math.max(end, offset + (elements / layout[0]) * layout[1]);
  }
  const dataStart = Math.ceil(r.position / alignment) * alignment;
  return unknown ? undefined : dataStart + end;
}

/** ggml types: [elements per block, bytes per block] (ggml.c's type_traits). */
const TYPE_LAYOUT: Record<number, [number, number]> = {
  0: [1, 4], // F32
  1: [1, 2], // F16
  2: [32, 18], // Q4_0
  3: [32, 20], // Q4_1
  6: [32, 22], // Q5_0
  7: [32, 24], // Q5_1
  8: [32, 34], // Q8_0
  9: [32, 36], // Q8_1
  10: [256, 84], // Q2_K
  11: [256, 110], // Q3_K
  12: [256, 144], // Q4_K
  13: [256, 176], // Q5_K
  14: [256, 210], // Q6_K
  15: [256, 292], // Q8_K
  16: [256, 66], // IQ2_XXS
  17: [256, 74], // IQ2_XS
  18: [256, 98], // IQ3_XXS
  19: [256, 50], // IQ1_S
  20: [32, 18], // IQ4_NL
  21: [256, 110], // IQ3_S
  22: [256, 82], // IQ2_S
  23: [256, 136], // IQ4_XS
  24: [1, 1], // I8
  25: [1, 2], // I16
  26: [1, 4], // I32
  27: [1, 8], // I64
  28: [1, 8], // F64
  29: [256, 56], // IQ1_M
  30: [1, 2], // BF16
};

/** GGUF value types whose size is fixed, by type number. */
const FIXED_SIZE: Record<number, number> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };

/** Little-endian reads from a Blob, a window at a time (a header's vocabulary runs to megabytes). */
class BlobReader {
  #window = new DataView(new ArrayBuffer(0));
  #windowStart = 0;
  position = 0;
  readonly #blob: Blob;

  constructor(blob: Blob) {
    this.#blob = blob;
  }

  async #need(n: number): Promise<DataView> {
    const at = this.position - this.#windowStart;
    if (at < 0 || at + n > this.#window.byteLength) {
      const size = Math.max(n, 1 << 20);
      const bytes = await this.#blob.slice(this.position, this.position + size).arrayBuffer();
      if (bytes.byteLength < n) throw new RangeError('the GGUF header is cut short');
      this.#window = new DataView(bytes);
      this.#windowStart = this.position;
    }
    const view = new DataView(this.#window.buffer, this.position - this.#windowStart, n);
    this.position += n;
    return view;
  }
  async u32(): Promise<number> {
    return (await this.#need(4)).getUint32(0, true);
  }
  async u64(): Promise<number> {
    return Number((await this.#need(8)).getBigUint64(0, true));
  }
  async string(): Promise<string> {
    const length = await this.u64();
    const view = await this.#need(length);
    return new TextDecoder().decode(new Uint8Array(view.buffer, view.byteOffset, length));
  }
  async skip(n: number): Promise<void> {
    // Past the window nothing is read: the next read fetches from the new position.
    this.position += n;
  }
  async skipValue(type: number): Promise<void> {
    if (type === 8) {
      await this.skip(await this.u64());
    } else if (type === 9) {
      const of = await this.u32();
      const count = await this.u64();
      const size = FIXED_SIZE[of];
      if (size !== undefined) await this.skip(count * size);
      else for (let i = 0; i < count; i++) await this.skipValue(of);
    } else {
      const size = FIXED_SIZE[type];
      if (size === undefined) throw new RangeError(`unknown GGUF value type ${type}`);
      await this.skip(size);
    }
  }
}
