/**
 * `fs.globSync` for Node 20, as far as the conformance CLI uses it (`globSync('**\/checks.json',
 * { cwd })`, in `tier-check`): the files under `cwd` whose path matches, relative to `cwd`.
 * Node 22's own is used when there is one.
 */
import * as fs from 'node:fs';
import { relative, sep } from 'node:path';

function toRegExp(pattern) {
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '*' && pattern[i + 1] === '*') {
      // `**/` is any number of directories, none included.
      out += pattern[i + 2] === '/' ? '(?:.*/)?' : '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

export function globSync(pattern, options = {}) {
  if (typeof fs.globSync === 'function') return fs.globSync(pattern, options);
  const cwd = options.cwd ?? process.cwd();
  const test = toRegExp(pattern);
  return fs
    .readdirSync(cwd, { recursive: true })
    .map(String)
    .filter((path) => test.test(path.split(sep).join('/')))
    .map((path) => relative(cwd, `${cwd}${sep}${path}`));
}
