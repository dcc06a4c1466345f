import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkBlocks, docBlocks, extractBlocks } from './docs-blocks';

const root = join(import.meta.dirname, '..');

describe('the TypeScript blocks of the docs', () => {
  it('are found with their line and the hidden context before them; other fences are skipped', () => {
    const md = [
      '# Title', // 1
      '```sh', // 2
      '```ts', // 3: inside a sh block, not a fence of its own
      '```', // 4
      '<!-- context: declare const n: number; -->', // 5
      '', // 6
      '```ts', // 7
      'const twice = n * 2;', // 8
      '```', // 9
      '```tsx', // 10
      'const el = <div />;', // 11
      '```', // 12
    ].join('\n');
    expect(extractBlocks('x.md', md)).toEqual([
      { file: 'x.md', line: 7, lang: 'ts', context: 'declare const n: number;', code: 'const twice = n * 2;' },
      { file: 'x.md', line: 11 - 1, lang: 'tsx', context: '', code: 'const el = <div />;' },
    ]);
  });

  // One compilation (a program over the sources takes seconds): the docs' blocks, and wrong ones.
  const wrong = extractBlocks(
    join(root, 'docs', 'example.md'),
    ['```ts', "import { createAgent } from 'moat-sdk';", 'const agent = createAgent({ model: 42 });', '```'].join('\n'),
  );
  // React's types are there too: a chat's snapshot and subscribe swapped, and a decision that is none.
  const misuse = extractBlocks(
    join(root, 'docs', 'misuse.md'),
    [
      '```tsx',
      "import { useSyncExternalStore } from 'react';",
      "import type { Chat } from 'moat-sdk';",
      'export const swapped = (chat: Chat) => useSyncExternalStore(chat.getSnapshot, chat.subscribe);',
      "export const undecided = (chat: Chat) => chat.approve('call', 'yes');",
      '```',
    ].join('\n'),
  );
  const isWrong = (p: string) => p.startsWith(join('docs', 'example.md')) || p.startsWith(join('docs', 'misuse.md'));
  let problems: string[] = [];
  beforeAll(() => {
    problems = checkBlocks(root, [...docBlocks(root), ...wrong, ...misuse]).map(
      (p) => `${p.file}:${p.line} ${p.message}`,
    );
  }, 180_000);

  it('report a wrong block at its line in the Markdown file', () => {
    expect(problems.filter((p) => p.startsWith(join('docs', 'example.md')))).toEqual([
      expect.stringMatching(/^docs\/example\.md:3 /),
    ]);
    expect(problems.filter((p) => p.startsWith(join('docs', 'misuse.md'))).map((p) => p.split(' ')[0])).toEqual([
      'docs/misuse.md:4',
      'docs/misuse.md:5',
    ]);
  });

  it('all type-check against this checkout', () => {
    const blocks = docBlocks(root);
    expect(blocks.map((b) => b.file)).toContain(join(root, 'docs', 'examples', 'react-chat.tsx'));
    expect(problems.filter((p) => !isWrong(p))).toEqual([]);
  });
});
