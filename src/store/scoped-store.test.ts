import { describe, expect, it } from 'vitest';
import { StorePermissionError } from '../errors/store-permission-error';
import { createMemoryStore } from './memory-store';
import { scopeStore } from './scoped-store';

describe('scopeStore', () => {
  it('allows namespaces under its prefixes and refuses the rest, every method', async () => {
    const base = createMemoryStore();
    await base.put(['secrets'], 'key', 'x');
    await base.put(['memory', 'u1'], 'tea', 'sencha');
    const scoped = scopeStore(base, [['memory']], { toolName: 'remember', toolCallId: 'c1' });
    expect((await scoped.get(['memory', 'u1'], 'tea'))?.value).toBe('sencha');
    await scoped.put(['memory'], 'k', 1);
    expect(await scoped.listNamespaces()).toEqual([['memory'], ['memory', 'u1']]);
    const refused = [
      scoped.get(['secrets'], 'key'),
      scoped.put(['secrets'], 'key', 'y'),
      scoped.delete(['secrets'], 'key'),
      scoped.update(['secrets'], 'key', () => 'z'),
      scoped.search(['secrets']),
      scoped.search([]),
      scoped.batch([
        { op: 'get', namespace: ['memory'], key: 'k' },
        { op: 'delete', namespace: ['secrets'], key: 'key' },
      ]),
      scoped.get(['memoryx'], 'k'),
    ];
    for (const attempt of refused) await expect(attempt).rejects.toBeInstanceOf(StorePermissionError);
    expect((await base.get(['secrets'], 'key'))?.value).toBe('x');
    const error = (await scoped.get(['secrets'], 'key').catch((e) => e)) as StorePermissionError;
    expect(error.message).toBe(`Tool 'remember' may not touch store namespace ["secrets"]. Allowed: ["memory"]`);
    expect([error.toolName, error.toolCallId]).toEqual(['remember', 'c1']);
  });

  it('checks the options it pages by itself, and passes bad batches on for the store to refuse', async () => {
    const scoped = scopeStore(createMemoryStore(), [['memory']]);
    await expect(scoped.listNamespaces({ limit: -1 })).rejects.toThrow(/`limit` to be a non-negative integer/);
    await expect(scoped.listNamespaces('all' as never)).rejects.toThrow(/listNamespaces options to be an object/);
    await expect(scoped.batch(5 as never)).rejects.toThrow('Expected `ops` to be an array, got `5` (number)');
  });
});
