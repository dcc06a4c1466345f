import { describe, expect, it } from 'vitest';
import { MessageValidationError } from './message-validation-error';
import { describeValue, MoatError, quote } from './moat-error';
import { NetworkDeniedError } from './network-denied-error';
import { isSerializedError, reviveError, serializeError } from './serialize-error';
import { UnknownMediaTypeError } from './unknown-media-type-error';
import { UnsupportedContentError } from './unsupported-content-error';

describe('MoatError', () => {
  it('has a fixed name on the prototype and keeps cause', () => {
    const cause = new TypeError('inner');
    const error = new MoatError({ message: 'outer', cause });
    expect(error.name).toBe('MoatError');
    expect(error.message).toBe('outer');
    expect(error.cause).toBe(cause);
    expect(Object.keys(error)).toEqual([]);
    expect(String(error)).toBe('MoatError: outer');
  });

  it('isInstance accepts subclasses and plain objects carrying a known name', () => {
    const validation = new MessageValidationError({ value: 1, issues: [] });
    expect(MoatError.isInstance(validation)).toBe(true);
    expect(MessageValidationError.isInstance(validation)).toBe(true);
    expect(MessageValidationError.isInstance(new MoatError())).toBe(false);
    expect(MoatError.isInstance({ name: 'MessageValidationError', message: 'x' })).toBe(true);
    expect(MessageValidationError.isInstance({ name: 'MessageValidationError' })).toBe(true);
    expect(MessageValidationError.isInstance({ name: 'MoatError' })).toBe(false);
    expect(MoatError.isInstance({ name: 'TypeError' })).toBe(false);
    expect(MoatError.isInstance(new Error('x'))).toBe(false);
    expect(MoatError.isInstance(null)).toBe(false);
    expect(MoatError.isInstance('MoatError')).toBe(false);
  });
});

describe('serializeError / reviveError', () => {
  it('revives a Moat error as its own class with its fields and cause', () => {
    const error = new MessageValidationError({
      value: { role: 'robot' },
      issues: [{ path: ['role'], message: 'bad role' }],
      cause: new RangeError('deep'),
    });
    const data = structuredClone(serializeError(error));
    expect(isSerializedError(data)).toBe(true);
    const revived = reviveError(data);
    expect(revived).toBeInstanceOf(MessageValidationError);
    expect(revived.name).toBe('MessageValidationError');
    expect(revived.message).toBe(error.message);
    expect((revived as MessageValidationError).issues).toEqual(error.issues);
    expect((revived as MessageValidationError).value).toEqual({ role: 'robot' });
    expect(revived.cause).toBeInstanceOf(RangeError);
    expect((revived.cause as Error).message).toBe('deep');
    expect(revived.stack).toBe(error.stack);
  });

  it('keeps the name of an unknown error class', () => {
    class CustomError extends Error {
      override name = 'CustomError';
    }
    const revived = reviveError(JSON.parse(JSON.stringify(serializeError(new CustomError('x')))));
    expect(revived).toBeInstanceOf(Error);
    expect(revived.name).toBe('CustomError');
    expect(revived.message).toBe('x');
  });

  it('turns thrown non-errors into errors', () => {
    expect(reviveError(serializeError('boom'))).toMatchObject({ name: 'Error', message: 'boom' });
    expect(reviveError(serializeError({ code: 7 })).message).toBe('{"code":7}');
    expect(reviveError(serializeError(undefined)).message).toBe('undefined');
  });

  it('reduces fields that cannot be cloned, and survives cycles', () => {
    const error = new MoatError({ message: 'x' }) as MoatError & Record<string, unknown>;
    error.fn = () => 1;
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    error.loop = loop;
    error.when = new Date(0);
    const data = serializeError(error);
    expect(() => structuredClone(data)).not.toThrow();
    expect(() => JSON.stringify(data)).not.toThrow();
    expect(data.fields?.when).toBe('"1970-01-01T00:00:00.000Z"');
  });

  it('does not let a __proto__ field reach the prototype', () => {
    const data = {
      $error: 1 as const,
      name: 'MoatError',
      message: 'x',
      fields: JSON.parse('{"__proto__": {"evil": true}}'),
    };
    const revived = reviveError(data);
    expect(revived).toBeInstanceOf(MoatError);
    expect((revived as unknown as { evil?: boolean }).evil).toBeUndefined();
  });
});

describe('message helpers', () => {
  it('quote and describeValue show the bad value and its type', () => {
    expect(quote('wether')).toBe("'wether'");
    expect(quote({ a: 1 })).toBe('{"a":1}');
    expect(quote('x'.repeat(200)).length).toBe(80);
    expect(describeValue(-1)).toBe('`-1` (number)');
    expect(describeValue(null)).toBe('`null` (null)');
    expect(describeValue([1])).toBe('`[1]` (array)');
  });
});

describe('the content errors', () => {
  it('UnknownMediaTypeError names the part and what its data was, and survives the trip from a worker', () => {
    const error = new UnknownMediaTypeError({ part: 'image', source: 'a Blob of 3 bytes with no type', cause: 1 });
    expect(error.name).toBe('UnknownMediaTypeError');
    expect(error.message).toBe(
      'Cannot tell the media type of the image (a Blob of 3 bytes with no type): its first bytes are not PNG, JPEG, GIF, WebP or PDF. Give `mediaType` on the part',
    );
    const revived = reviveError(structuredClone(serializeError(error)));
    expect(revived).toBeInstanceOf(UnknownMediaTypeError);
    expect(revived).toMatchObject({ part: 'image', source: 'a Blob of 3 bytes with no type', message: error.message });
    expect(revived.cause).toBe(1);
    expect(MoatError.isInstance({ name: 'UnknownMediaTypeError' })).toBe(true);
  });

  it('UnsupportedContentError names the provider, the part, where it was and what it takes; it survives the trip', () => {
    const error = new UnsupportedContentError({
      provider: 'ollama',
      part: 'a file part (application/pdf)',
      where: 'a user message',
      accepted: 'images only',
    });
    expect(error.name).toBe('UnsupportedContentError');
    expect(error.message).toBe(
      'The ollama format cannot take a file part (application/pdf) in a user message. It takes: images only',
    );
    const revived = reviveError(JSON.parse(JSON.stringify(serializeError(error))));
    expect(UnsupportedContentError.isInstance(revived)).toBe(true);
    expect(revived).toMatchObject({ provider: 'ollama', where: 'a user message', accepted: 'images only' });
  });
});

describe('NetworkDeniedError', () => {
  it('says the cause, then the option that allows it', () => {
    const error = new NetworkDeniedError({ url: 'https://example.com/', api: 'fetch', reason: "policy 'deny'" });
    expect(error.message).toBe(
      "Network access denied by the pool's policy: fetch https://example.com/ (policy 'deny'). To allow it, give createWorkerPool a `network` option: 'allow', or a function (url, api) => boolean that answers true for this URL.",
    );
  });
});
