import { createPartialJsonParser, mergeToolCallChunks, type ToolCallChunk } from 'moat';

/** A tool call as an OpenAI-compatible model streams it: id and name first, then argument text. */
const call = {
  id: 'call_demo_1',
  name: 'plan_trip',
  args: JSON.stringify({
    city: 'Lisbon',
    days: 3,
    interests: ['tiles', 'fado', 'pastéis de nata'],
    budget: { amount: 900, currency: 'EUR' },
    notes: 'Prefers walking; avoid "tourist traps" 🙂',
  }),
};

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const raw = $<HTMLPreElement>('raw');
const partial = $<HTMLPreElement>('partial');
const final = $<HTMLPreElement>('final');
const state = $<HTMLSpanElement>('state');
const replay = $<HTMLButtonElement>('replay');
const pieceInput = $<HTMLInputElement>('piece');

const nextFrame = () => new Promise((resolve) => setTimeout(resolve, 30));

async function play(): Promise<void> {
  replay.disabled = true;
  const size = Math.min(64, Math.max(1, Number(pieceInput.value) || 6));
  const chunks: ToolCallChunk[] = [{ index: 0, id: call.id, name: call.name, args: '' }];
  const parser = createPartialJsonParser();
  raw.textContent = '';
  final.textContent = '';
  for (let at = 0; at < call.args.length; at += size) {
    const piece = call.args.slice(at, at + size);
    chunks.push({ index: 0, args: piece });
    raw.textContent += piece;
    partial.textContent = JSON.stringify(parser.push(piece), null, 2) ?? '';
    state.textContent = `${parser.state}, ${parser.length} characters`;
    await nextFrame();
  }
  const { toolCalls, invalidToolCalls } = mergeToolCallChunks(chunks);
  final.textContent = JSON.stringify(toolCalls[0] ?? invalidToolCalls[0], null, 2);
  state.textContent = parser.state;
  replay.disabled = false;
}

/** The "live tool-call arguments" panel. */
export function setUpLiveArgs(): void {
  replay.addEventListener('click', () => void play());
}
