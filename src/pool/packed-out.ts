/**
 * An `OutBatch` of text and JSON results (and the started count) as one string: what a worker
 * posts for the usual case, a batch of results with nothing but their content.
 *
 * Measured here (headless Chromium, a worker's reply read by the page): a short string costs
 * about a tenth less of a bare `postMessage` round trip than the same data as a five-entry array,
 * and a worker without shared memory posts one such message per result. Anything else (deltas,
 * errors, results with an artifact or a state update) goes as the array it is.
 *
 * Each entry: the kind (one digit), the id, `:`, the payload's length in UTF-16 code units, `:`,
 * then the payload itself (any characters). `OUT_STARTED` carries no payload (length 0).
 */
import { OUT_JSON, OUT_STARTED, OUT_STRIDE, OUT_TEXT, type OutBatch } from './protocol';

/**
 * Past this many characters a batch goes as it is: the array's own cost is lost in the copying of
 * its text, and packing would copy the text once more (measured: a 1 MB result's round trip about
 * a tenth slower packed).
 */
export const PACK_MAX_CHARS = 64 * 1024;

/**
 * The batch as one string, or undefined when an entry is not a bare text or JSON result, or the
 * batch is larger than `PACK_MAX_CHARS`.
 */
export function packOut(batch: OutBatch): string | undefined {
  let packed = '';
  for (let i = 0; i + OUT_STRIDE <= batch.length; i += OUT_STRIDE) {
    const kind = batch[i];
    const payload = batch[i + 2];
    if (kind === OUT_STARTED) packed += `${OUT_STARTED}${batch[i + 1]}:0:`;
    else if ((kind === OUT_TEXT || kind === OUT_JSON) && typeof payload === 'string')
      packed += `${kind}${batch[i + 1]}:${payload.length}:${payload}`;
    else return undefined;
    if (packed.length > PACK_MAX_CHARS) return undefined;
  }
  return packed;
}

/**
 * The batch a packed string holds. A string that is not one (it came from a worker speaking
 * another protocol, say) throws a `TypeError`; nothing is half read into the batch's calls.
 */
export function unpackOut(packed: string): OutBatch {
  const batch: OutBatch = [];
  let at = 0;
  while (at < packed.length) {
    const kind = packed.charCodeAt(at) - 48;
    const id = readCount(packed, at + 1);
    const length = id < 0 ? -1 : readCount(packed, cursor);
    const end = cursor + length;
    if (
      length < 0 ||
      end > packed.length ||
      (kind !== OUT_TEXT && kind !== OUT_JSON && (kind !== OUT_STARTED || length !== 0))
    )
      throw new TypeError(`Not a packed result batch (at character ${at})`);
    batch.push(kind, id, kind === OUT_STARTED ? 0 : packed.slice(cursor, end));
    at = end;
  }
  return batch;
}

/** Where the text after the last count read begins. */
let cursor = 0;

/** Decimal digits from `at` up to a `:` (then `cursor` is past it), or -1 when there are none. */
function readCount(text: string, at: number): number {
  let value = 0;
  let i = at;
  for (; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) break;
    value = value * 10 + digit;
  }
  if (i === at || i - at > 15 || text.charCodeAt(i) !== 58) return -1;
  cursor = i + 1;
  return value;
}
