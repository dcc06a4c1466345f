// The tools several tests serve (inline in Node, from the agent's, the invoker's, the pool's and
// the storm's workers): one definition each. A test hears that a call ran through `ran`; each
// worker keeps its own peculiar tools where they are.
import * as z from 'zod/mini';
import { defineTool } from '../worker/define-tool';
import { sleep } from './sleep';

/** Told as a call starts running: how a test counts what really ran. */
export type Ran = (run: { name: string; toolCallId: string; args: Record<string, unknown> }) => void;

export interface SharedToolOptions {
  ran?: Ran;
  /** Declared idempotent (the pool may run a call of it again on a fresh worker). */
  idempotent?: boolean;
}

const numbers = z.object({ a: z.number(), b: z.number() });

export const multiply = ({ ran }: SharedToolOptions = {}) =>
  defineTool({
    name: 'multiply',
    description: 'Multiply two numbers.',
    input: numbers,
    run: async (args, { toolCallId }) => {
      ran?.({ name: 'multiply', toolCallId, args });
      // Slow on purpose (the subject): beside add, it finishes last, so that tests see answers
      // come back in call order rather than finishing order, and parallel calls overlap.
      await sleep(20);
      return args.a * args.b;
    },
  });

export const add = ({ ran, idempotent = false }: SharedToolOptions = {}) =>
  defineTool({
    name: 'add',
    description: 'Add two numbers.',
    input: numbers,
    idempotent,
    run: (args, { toolCallId }) => {
      ran?.({ name: 'add', toolCallId, args });
      return args.a + args.b;
    },
  });

export const fail = () =>
  defineTool({
    name: 'fail',
    description: 'Always fails.',
    input: z.object({}),
    run: () => {
      throw new Error('the disk is on fire');
    },
  });

export const deleteNote = ({ ran }: SharedToolOptions = {}) =>
  defineTool({
    name: 'delete_note',
    description: 'Delete a note (asks first).',
    input: z.object({ key: z.string() }),
    needsApproval: true,
    run: (args, { toolCallId }) => {
      ran?.({ name: 'delete_note', toolCallId, args });
      return `Deleted ${args.key}`;
    },
  });
