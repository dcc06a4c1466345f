/**
 * The README is the package's page on the registry too, where docs/ is not shipped (package.json's
 * `files`): a link to a guide must be absolute, into the repository package.json names, and name
 * a file (and a heading, for an anchor) that this checkout has.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  repository: { url: string };
  files: string[];
};
/** `git+https://github.com/owner/name.git` → `https://github.com/owner/name/blob/main/`. */
const blob = `${pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`;

/** Code blocks and code spans out: what is left is prose, whose links are links. */
const proseOf = (markdown: string) => markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');

/**
 * The targets of a Markdown text's links, inline (`[text](target)`) and by reference (`[text][ref]`
 * with `[ref]: target` below), in the order they are read; a reference with no definition (shown
 * as plain text) comes back as `[ref]`.
 */
function linksOf(markdown: string): string[] {
  const prose = proseOf(markdown);
  const definition = /^\[([^\]]+)\]:\s*(\S+).*$/gm;
  const targets = new Map<string, string>();
  for (const [, ref, target] of prose.matchAll(definition))
    targets.set((ref as string).toLowerCase(), target as string);
  return [...prose.replace(definition, '').matchAll(/\]\(([^)\s]+)\)|\]\[([^\]]+)\]/g)].map(
    ([, inline, ref]) => inline ?? targets.get((ref as string).toLowerCase()) ?? `[${ref}]`,
  );
}

/** GitHub's anchors for a Markdown text's headings (lower case, punctuation dropped, spaces as hyphens). */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '');
  for (const [, text] of prose.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = (text as string)
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    let anchor = base;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${base}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** What is wrong with one README link, or undefined when it resolves from the registry's page. */
function problemOf(link: string, readmeAnchors: Set<string>, readFile: (path: string) => string | undefined) {
  if (link.startsWith('[')) return `the reference ${link} has no definition`;
  if (link.startsWith('#')) return readmeAnchors.has(link.slice(1)) ? undefined : `no heading for ${link}`;
  if (!/^[a-z]+:/.test(link)) return `${link} is relative: it does not resolve on the registry's page`;
  if (!link.startsWith(blob)) return undefined; // elsewhere on the web: not this test's to check
  const [path = '', anchor] = link.slice(blob.length).split('#');
  const text = readFile(path);
  if (text === undefined) return `${link}: the checkout has no ${path}`;
  if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(text).has(anchor)) {
    return `${link}: ${path} has no heading for #${anchor}`;
  }
  return undefined;
}

const readInCheckout = (path: string) => {
  const file = join(root, path);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
};

describe("the README's links", () => {
  it('are found outside code, and anchors made as GitHub makes them', () => {
    expect(linksOf('See [a](docs/a.md), `[b](c)`\n```md\n[d](e)\n```\n[f](#g-h)')).toEqual(['docs/a.md', '#g-h']);
    const refs = 'First [the guide][Guide], then [x](#y) and [lost][nowhere].\n\n[guide]: https://example.com/g\n';
    expect(linksOf(refs)).toEqual(['https://example.com/g', '#y', '[nowhere]']);
    expect([
      ...anchorsOf('# Long conversations, context: usage\n## `createChat` (React)\n## Faults\n## Faults'),
    ]).toEqual(['long-conversations-context-usage', 'createchat-react', 'faults', 'faults-1']);
  });

  it('are refused when relative, when the file is missing, or when its heading is', () => {
    const files: Record<string, string> = { 'docs/a.md': '# A\n## Images and files\n' };
    const read = (path: string) => files[path];
    const anchors = new Set(['install']);
    expect(problemOf('docs/a.md', anchors, read)).toMatch(/relative/);
    expect(problemOf(`${blob}docs/b.md`, anchors, read)).toMatch(/no docs\/b\.md/);
    expect(problemOf(`${blob}docs/a.md#images`, anchors, read)).toMatch(/no heading for #images/);
    expect(problemOf('#quick-start', anchors, read)).toMatch(/no heading/);
    expect(problemOf(`${blob}docs/a.md#images-and-files`, anchors, read)).toBeUndefined();
    expect(problemOf('#install', anchors, read)).toBeUndefined();
    expect(problemOf('https://ollama.com', anchors, read)).toBeUndefined();
    expect(problemOf('[nowhere]', anchors, read)).toMatch(/no definition/);
  });

  it('resolve from the registry page: absolute, to files and headings this checkout has', () => {
    expect(pkg.files).toContain('README.md');
    expect(pkg.files).not.toContain('docs');
    const links = linksOf(readme);
    expect(links.length).toBeGreaterThan(10);
    const anchors = anchorsOf(readme);
    expect(links.map((link) => problemOf(link, anchors, readInCheckout)).filter(Boolean)).toEqual([]);
  });

  it('put the tutorial first, in a README of at most 15 KB', () => {
    expect(linksOf(readme)[0]).toBe(`${blob}docs/tutorial.md`);
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(15 * 1024);
  });
});
