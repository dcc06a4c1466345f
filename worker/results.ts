import { findNonJSON, isPlainObject } from '../src/json/json-value';
import { isFetchedURL } from '../src/messages/media-data';
import {
  type BlobBytes,
  type ContentPartInput,
  isBlob,
  readContentPart,
  withBytes,
} from '../src/messages/to-content-part';
import type { ContentPart, FilePart, ImagePart } from '../src/messages/types';

type MediaPart = ImagePart | FilePart;

import type { CallResult, ResultFormat } from '../src/pool/protocol';

const UPDATE = Symbol.for('moat.update');
const ARTIFACT = Symbol.for('moat.artifact');

/** A result that also updates the caller's state (LangGraph's `Command`). */
export interface WithUpdate<Result = unknown> {
  readonly [UPDATE]: true;
  result: Result;
  update: Record<string, unknown>;
}

/**
 * Return this from a tool to answer the model with `result` and update the caller's state (the
 * agent's `state`, merged by its `reducers`) with `update`.
 *
 * @example return withUpdate('Added.', { cart: [item] })
 */
export function withUpdate<Result>(result: Result, update: Record<string, unknown>): WithUpdate<Result> {
  return { [UPDATE]: true, result, update };
}

/** A text for the model with structured data kept beside it for the app. */
export interface WithArtifact {
  readonly [ARTIFACT]: true;
  content: string;
  artifact: unknown;
}

/**
 * Return this from a tool to show the model `content` and keep `artifact` for the app. A plain
 * `{ content, artifact }` object (exactly those two keys, `content` a string) means the same.
 *
 * @example return withArtifact(`Found ${rows.length} rows`, rows)
 */
export function withArtifact(content: string, artifact: unknown): WithArtifact {
  return { [ARTIFACT]: true, content, artifact };
}

function isWithUpdate(value: unknown): value is WithUpdate {
  return typeof value === 'object' && value !== null && (value as WithUpdate)[UPDATE] === true;
}

function isWithArtifact(value: unknown): value is { content: string; artifact: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  if ((value as WithArtifact)[ARTIFACT] === true) return true;
  const keys = Object.keys(value);
  return (
    keys.length === 2 &&
    keys.includes('content') &&
    keys.includes('artifact') &&
    typeof (value as { content: unknown }).content === 'string'
  );
}

/**
 * What a tool may return to give the model images or files beside its text: `{ content: parts }`
 * (and an `artifact`, if it likes). An image or file's `data` is bytes (a `Uint8Array`, an
 * `ArrayBuffer`), a `Blob` in a worker, or base64 (a URL is refused: the page and the provider
 * would fetch it); its `mediaType` is told by the bytes (PNG, JPEG, GIF, WebP, PDF) when left out.
 *
 * @example return { content: [{ type: 'text', text: 'Sales by month' }, { type: 'image', data: png }] }
 */
export interface PartsResult {
  content: ContentPartInput[];
  artifact?: unknown;
}

/** `{ content: [...] }` (and `artifact`), every entry `{ type: 'text' | 'image' | 'file' }`; anything else is data. */
function isPartsResult(value: unknown): value is PartsResult {
  if (!isPlainObject(value) || !Array.isArray(value.content) || value.content.length === 0) return false;
  if (!Object.keys(value).every((k) => k === 'content' || k === 'artifact')) return false;
  return value.content.every((p) => isPlainObject(p) && (p.type === 'text' || p.type === 'image' || p.type === 'file'));
}

/** A parts result as the page gets it: the text parts as the text, images and files beside it (base64). */
function convertParts(value: PartsResult): Converted {
  const text: string[] = [];
  const media: MediaPart[] = [];
  for (const [i, input] of value.content.entries()) {
    let part: ContentPart;
    try {
      const data = isPlainObject(input) ? input.data : undefined;
      part = readContentPart(input, isBlob(data) ? readBlob(data) : undefined);
    } catch (error) {
      return { ok: false, reason: `result.content.${i}: ${(error as Error).message}` };
    }
    if (part.type === 'text') text.push(part.text);
    // A URL would be fetched by the page that shows it and by the provider: a way out past the
    // tool's network policy. A tool gives the bytes.
    else if (isFetchedURL(part.data))
      return {
        ok: false,
        reason: `result.content.${i} is a URL: return the image or file itself (its bytes or base64)`,
      };
    else media.push(part);
  }
  const problem = value.artifact === undefined ? undefined : findNonJSON(value.artifact);
  if (problem)
    return { ok: false, reason: `the artifact at ${path(['artifact', ...problem.path])} is ${problem.reason}` };
  const result: CallResult = { content: text.join('\n'), kind: 'text' };
  if (media.length > 0) result.media = media;
  if (value.artifact !== undefined) result.artifact = value.artifact;
  return { ok: true, result };
}

/** A Blob's bytes, read synchronously: a worker can (FileReaderSync); the page cannot. */
function readBlob(blob: Blob): BlobBytes {
  const Reader = (globalThis as { FileReaderSync?: new () => { readAsArrayBuffer(b: Blob): ArrayBuffer } })
    .FileReaderSync;
  if (!Reader)
    throw new TypeError('a Blob is read only in a worker: return its bytes (new Uint8Array(await blob.arrayBuffer()))');
  return withBytes(blob, new Uint8Array(new Reader().readAsArrayBuffer(blob)));
}

/** Why a result cannot be used, or the converted result. */
export type Converted = { ok: true; result: CallResult } | { ok: false; reason: string };

/**
 * A tool's return value → the text the model sees (and artifact, state update). Strings stay
 * as they are with `'string'`; with `'json'` every value, strings included, is JSON. Anything
 * JSON cannot hold (a function, a cycle, a class instance, a bigint) is refused, with its path.
 */
export function convertResult(value: unknown, format: ResultFormat = 'string'): Converted {
  if (isWithUpdate(value)) {
    const problem = findNonJSON(value.update);
    if (problem)
      return { ok: false, reason: `the state update at ${path(['update', ...problem.path])} is ${problem.reason}` };
    const inner = convertResult(value.result, format);
    if (!inner.ok) return inner;
    return { ok: true, result: { ...inner.result, update: value.update } };
  }
  if (isPartsResult(value)) return convertParts(value);
  if (isWithArtifact(value)) {
    const result: CallResult = { content: value.content, kind: 'text' };
    if (value.artifact !== undefined) result.artifact = value.artifact;
    return { ok: true, result };
  }
  if (value === undefined)
    return {
      ok: true,
      result: { content: format === 'json' ? 'null' : '', kind: format === 'json' ? 'json' : 'text' },
    };
  if (typeof value === 'string' && format === 'string') return { ok: true, result: { content: value, kind: 'text' } };
  const problem = findNonJSON(value);
  if (problem) return { ok: false, reason: `${path(problem.path)} is ${problem.reason}` };
  return { ok: true, result: { content: JSON.stringify(value), kind: 'json' } };
}

function path(steps: (string | number)[]): string {
  return steps.length === 0 ? 'the result' : `result.${steps.join('.')}`;
}
