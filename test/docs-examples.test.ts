// The React example in docs/ type-checks against React's types and Moat's own (docs/examples/tsconfig.json).
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const config = resolve(import.meta.dirname, '../docs/examples/tsconfig.json');

function programOf(extra?: { name: string; text: string }, old?: ts.Program) {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    config,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  if (!parsed) throw new Error(`Cannot read ${config}`);
  const host = ts.createCompilerHost(parsed.options);
  if (extra) {
    const { getSourceFile, fileExists } = host;
    host.fileExists = (name) => name === extra.name || fileExists(name);
    host.getSourceFile = (name, language, ...rest) =>
      name === extra.name ? ts.createSourceFile(name, extra.text, language) : getSourceFile(name, language, ...rest);
  }
  const roots = extra ? [...parsed.fileNames, extra.name] : parsed.fileNames;
  return ts.createProgram({ rootNames: roots, options: parsed.options, host, ...(old ? { oldProgram: old } : {}) });
}

const messages = (diagnostics: readonly ts.Diagnostic[]) =>
  diagnostics.map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);

describe('docs/examples', () => {
  it('react-chat.tsx type-checks; a misuse of the chat beside it does not', { timeout: 180_000 }, () => {
    const program = programOf();
    expect(program.getRootFileNames().map((f) => f.split('/').at(-1))).toContain('react-chat.tsx');
    expect(messages(ts.getPreEmitDiagnostics(program))).toEqual([]);
    // The check can fail: the snapshot and subscribe swapped, and a decision that is none.
    const name = join(dirname(config), 'misuse.tsx');
    const text = `import { useSyncExternalStore } from 'react';
import type { Chat } from 'moat';
export const swapped = (chat: Chat) => useSyncExternalStore(chat.getSnapshot, chat.subscribe);
export const undecided = (chat: Chat) => chat.approve('call', 'yes');
`;
    const misuse = programOf({ name, text }, program);
    const errors = ts.getPreEmitDiagnostics(misuse).filter((d) => d.file?.fileName === name);
    expect(errors.map((d) => d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line)).toEqual([2, 3]);
  });
});
