export { createStreamDecoder, STREAM_FORMATS } from './create-stream-decoder';
export { decodeNDJSON, decodeSSE, type SSEEvent } from './decode-sse';
export { type DecodedStream, type DecodeStreamOptions, decodeStream, decodeWith } from './decode-stream';
export { parseJsonPath } from './json-path';
export type { StreamDecoder } from './stream-decoder';
export type { StreamErrorCode, StreamFormat, StreamPart } from './stream-part';
export type { ByteSource } from './text-chunks';
