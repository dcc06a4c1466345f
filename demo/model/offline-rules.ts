/**
 * The offline demo model's script: what it answers to a conversation, with no network and no
 * key. It reads the person's last message, calls the demo's tools the way a real model would
 * (several at once when asked several things), and words an answer from what they returned.
 * Pure (it imports types and `textOf`, a pure helper), so it is tested in Node.
 */
import type { AIMessage, ContentPart, Message, ToolMessage } from 'moat-sdk';
import { imageSize, textOf } from 'moat-sdk/messages';

export interface PlannedCall {
  name: string;
  args: Record<string, unknown>;
}

export interface PlannedTurn {
  text?: string;
  toolCalls?: PlannedCall[];
}

/** Prompts the page offers (each one shows a tool at work). */
export const SUGGESTIONS: readonly { label: string; prompt: string }[] = [
  { label: 'Two sums at once', prompt: 'What is 3 * 12? Also, what is 11 + 49?' },
  { label: 'Remember a note', prompt: 'Remember that my favourite tea is sencha' },
  { label: 'Recall it', prompt: 'What do you remember about tea?' },
  { label: 'Delete it (asks you)', prompt: 'Delete the note my favourite tea' },
  { label: 'Burn CPU in a worker', prompt: 'Count the primes below 20,000,000' },
  { label: 'Streamed tool output', prompt: 'Echo slowly: tools stream their progress to the page' },
  { label: 'Try the network', prompt: 'Fetch https://example.com/' },
  { label: 'A tool that hangs', prompt: 'Run a busy loop for 600 seconds' },
  { label: 'Convert units', prompt: 'Convert 5 km to miles' },
  { label: 'A chart from a worker', prompt: 'Draw a chart of 3, 7, 2, 9 and 5' },
  { label: 'Time in Tokyo', prompt: 'What time is it in Tokyo?' },
  { label: 'Code that calls tools', prompt: 'Use code to multiply 3 by 12 and convert 42 km to miles' },
  { label: 'Run your own code', prompt: 'Run JavaScript: [3, 1, 2].sort().map((x) => x * x)' },
  { label: 'Hostile Markdown', prompt: 'Show me a hostile markdown answer' },
  { label: 'A long answer', prompt: 'Tell me a long story' },
];

const ZONES: Record<string, string> = {
  tokyo: 'Asia/Tokyo',
  london: 'Europe/London',
  paris: 'Europe/Paris',
  berlin: 'Europe/Berlin',
  lisbon: 'Europe/Lisbon',
  'new york': 'America/New_York',
  'los angeles': 'America/Los_Angeles',
  'san francisco': 'America/Los_Angeles',
  chicago: 'America/Chicago',
  sydney: 'Australia/Sydney',
  delhi: 'Asia/Kolkata',
  mumbai: 'Asia/Kolkata',
  'são paulo': 'America/Sao_Paulo',
  'sao paulo': 'America/Sao_Paulo',
  utc: 'UTC',
};

/** "20,000,000", "2e7", "20 million", "1_000" → a number. */
export function numberIn(text: string): number | undefined {
  const match = /(\d[\d,_]*(?:\.\d+)?(?:e\d+)?)\s*(thousand|million|billion|k\b|m\b)?/i.exec(text);
  if (!match) return undefined;
  const base = Number((match[1] as string).replace(/[,_]/g, ''));
  const scale = { thousand: 1e3, k: 1e3, million: 1e6, m: 1e6, billion: 1e9 }[(match[2] ?? '').toLowerCase() as 'k'];
  return base * (scale ?? 1);
}

/** The arithmetic in a sentence: "What is 3 * 12? Also 11 + 49" → ["3 * 12", "11 + 49"]. */
export function expressionsIn(text: string): string[] {
  const found = text.match(/(?:sqrt|abs|round)?[\d(.][\d\s.,_+\-*/×÷^%()]*[\d)]/g) ?? [];
  return found
    .map((e) => e.trim())
    .filter((e) => /\d\s*(?:[-+*/×÷^%]|\*\*)\s*[\d(]/.test(e))
    .map((e) => e.replace(/(\d),(\d{3})/g, '$1$2'));
}

const lastUser = (messages: readonly Message[]) => {
  const user = messages.findLast((m) => m.role === 'user');
  return user ? textOf(user.content).trim() : '';
};

/** The next turn for the conversation so far. */
export function planTurn(messages: readonly Message[]): PlannedTurn {
  const last = messages.at(-1);
  if (last?.role === 'tool') return { text: answerFromResults(messages) };
  const user = messages.findLast((m) => m.role === 'user');
  const attached = user && typeof user.content !== 'string' ? user.content.filter((p) => p.type !== 'text') : [];
  if (attached.length > 0) return { text: describeAttachments(attached as MediaPart[]) };
  return planFor(lastUser(messages));
}

type MediaPart = Extract<ContentPart, { type: 'image' | 'file' }>;

/**
 * What the offline model can say of attachments without seeing them: each one's type, size and,
 * for a PNG, GIF or JPEG, its width and height (read from the bytes).
 */
export function describeAttachments(parts: readonly MediaPart[]): string {
  const lines = parts.map((part) => {
    const base64 = /^data:[^,]*;base64,(.*)$/s.exec(part.data)?.[1] ?? part.data;
    const kind = part.mediaType ? ` (${part.mediaType})` : '';
    const what =
      part.type === 'file' && part.filename
        ? `**${part.filename}**${kind}`
        : `${part.type === 'image' ? 'an image' : 'a file'}${kind}`;
    if (/^https?:/i.test(part.data)) return `- ${what} at ${part.data}`;
    const bytes = Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
    const size = imageSize(base64);
    return `- ${what}, ${formatBytes(bytes)}${size ? `, ${size.width} × ${size.height} pixels` : ''}`;
  });
  return `You attached ${parts.length === 1 ? 'one thing' : `${parts.length} things`}:\n\n${lines.join('\n')}\n\nI am the offline demo model: I can read their type and size, not what is in them. Connect a real model in **Settings** and it will see them (they are kept with this conversation).`;
}

const formatBytes = (n: number) =>
  n < 1024 ? `${n} bytes` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`;

function planFor(said: string): PlannedTurn {
  const t = said.toLowerCase();
  const call = (name: string, args: Record<string, unknown>): PlannedTurn => ({ toolCalls: [{ name, args }] });

  if (/\b(hostile|xss|inject)/.test(t)) return { text: HOSTILE };
  if (/\bmarkdown\b/.test(t)) return { text: MARKDOWN };
  if (/\b(story|long answer|essay)\b/.test(t)) return { text: STORY };

  const script =
    /^(?:please\s+)?(?:run|execute|eval(?:uate)?)(?:\s+this)?\s+(?:javascript|js|code)\s*:\s*([\s\S]+)$/i.exec(said);
  const fenced = /```(?:js|javascript)?\n([\s\S]+?)```/.exec(said);
  const code = fenced?.[1] ?? script?.[1];
  if (code) return call('run_javascript', { code: code.trim() });
  if (/\b(use|with|in|write)\s+(?:some\s+)?(code|javascript|a script)\b|\bcode mode\b/.test(t))
    return call('run_javascript', { code: CODE_MODE });

  const remember = /^(?:please\s+)?remember(?:\s+that)?[:\s]+(.+)$/is.exec(said);
  if (remember) {
    const text = (remember[1] as string).trim().replace(/[.!]+$/, '');
    const is = /^(.+?)\s+(?:is|are|was|=)\s+(.+)$/i.exec(text);
    const title = (is ? (is[1] as string) : text.split(/\s+/).slice(0, 5).join(' ')).slice(0, 200);
    return call('remember', { title, text });
  }
  const del =
    /\b(?:delete|forget|remove)\b(?:\s+the)?(?:\s+note)?(?:\s+(?:about|titled|called|named))?\s+['"“]?(.+?)['"”]?[.!?]*$/i.exec(
      said,
    );
  if (del) return call('delete_note', { title: (del[1] as string).trim() });
  if (/\b(?:list|show)(?: me)?(?: all)?(?: of)?(?: my)? notes\b|\bwhat notes\b/.test(t)) return call('list_notes', {});
  const recall =
    /\b(?:recall|remember about|know about|told you about|tell you about|notes? (?:about|on))\s+(.+?)[?.!]*$/i.exec(
      said,
    ) ?? /\bwhat(?:'s| is| are) my\s+(.+?)[?.!]*$/i.exec(said);
  if (recall) return call('recall', { query: (recall[1] as string).replace(/^(?:the|my)\s+/i, '') });

  if (/\b(chart|graph|plot)\b/.test(t)) {
    const values = (said.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number).slice(0, 24);
    return call('draw_chart', { values: values.length > 0 ? values : [3, 7, 2, 9, 5] });
  }
  if (/\bprimes?\b/.test(t)) return call('count_primes', { n: Math.min(numberIn(said) ?? 1_000_000, 50_000_000) });
  const echo = /\b(?:echo|repeat)(?:\s+(?:slowly|back|this|after me))*[:\s]+(.+)$/is.exec(said);
  if (echo) return call('slow_echo', { text: (echo[1] as string).trim() });
  const url = /\bhttps?:\/\/[^\s<>"')]+/i.exec(said);
  if (url || /\b(fetch|download)\b/.test(t)) return call('fetch_url', { url: url?.[0] ?? 'https://example.com/' });
  if (/\b(busy loop|hang|freeze|stuck|endless loop|infinite loop)\b/.test(t))
    return call('busy_loop', { seconds: Math.min(numberIn(said) ?? 600, 600) });
  if (/\b(eat|hog|exhaust)\b.*\bmemory\b/.test(t)) return call('hog_memory', {});

  const conversion = /(-?\d[\d,]*(?:\.\d+)?)\s*([a-z°/][a-z°/ ]*?)\s+(?:to|in|into)\s+([a-z°/][a-z°/ ]*?)[?.!]*$/i.exec(
    said,
  );
  if (conversion && /\b(convert|how many|in|to)\b/.test(t))
    return call('convert_units', {
      value: Number((conversion[1] as string).replace(/,/g, '')),
      from: (conversion[2] as string).trim(),
      to: (conversion[3] as string).trim(),
    });

  if (/\b(time|date|what day|today)\b/.test(t)) {
    const zone = /\b[A-Z][a-z]+\/[A-Z][A-Za-z_]+\b/.exec(said)?.[0];
    const place = Object.keys(ZONES).find((city) => t.includes(city));
    return call('date_time', zone ? { timeZone: zone } : place ? { timeZone: ZONES[place] } : {});
  }

  const sums = expressionsIn(said);
  if (sums.length > 0)
    return { toolCalls: sums.slice(0, 6).map((expression) => ({ name: 'calculator', args: { expression } })) };

  if (/^(hi|hello|hey|good (morning|afternoon|evening))\b/.test(t)) return { text: `Hello! ${HELP}` };
  return { text: `I am Moat's offline demo model: I follow a script, not a brain. ${HELP}` };
}

const HELP =
  'I can do arithmetic, convert units, tell the time, keep notes (remember, recall, list, delete), count primes, echo slowly and try the network, each with a tool running in a Web Worker. Try one of the suggestions, or connect a real model in **Settings**.';

function parse(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

/** Words an answer from the tool results of the model's latest turn. */
function answerFromResults(messages: readonly Message[]): string {
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const turn = messages[at] as AIMessage | undefined;
  const results = messages.slice(at + 1).filter((m): m is ToolMessage => m.role === 'tool');
  const lines = (turn?.toolCalls ?? []).map((call) => {
    const result = results.find((r) => r.toolCallId === call.id);
    if (!result) return `I got no answer from \`${call.name}\`.`;
    return result.status === 'error'
      ? failure(call.name, textOf(result.content))
      : success(call.name, call.args, parse(textOf(result.content)));
  });
  return lines.join('\n\n');
}

function failure(name: string, content: string): string {
  if (name === 'fetch_url')
    return `The request never left the worker: **${content}**\n\nMoat's pool denies tools the network unless the app allows it, so a tool cannot send your data anywhere.`;
  if (/not approved|denied/i.test(content) && name === 'delete_note')
    return `All right, I did not delete it (${content}).`;
  if (name === 'run_javascript') return `The script failed: ${content}`;
  if (/timed out/i.test(content))
    return `\`${name}\` was stopped: ${content}\n\nIts worker was replaced; the page never froze, and the next call works as usual.`;
  return `\`${name}\` failed: ${content}`;
}

const fmt = (n: number) => n.toLocaleString('en-US');

function success(name: string, args: Record<string, unknown>, value: unknown): string {
  const v = value as Record<string, unknown>;
  switch (name) {
    case 'calculator':
      return `${v.expression} = **${fmt(v.result as number)}**`;
    case 'convert_units':
      return `${value}`;
    case 'date_time':
      return `In ${v.timeZone} it is **${v.local}**.`;
    case 'remember':
      return `${value} It is kept in this browser's IndexedDB: reload the page and ask me to recall it.`;
    case 'recall': {
      const notes = value as { title: string; text: string }[];
      if (notes.length === 0) return `I have no note about "${args.query}".`;
      return `Here is what I have about "${args.query}":\n\n${notes.map((n) => `- **${n.title}**: ${n.text}`).join('\n')}`;
    }
    case 'list_notes': {
      const titles = value as string[];
      return titles.length === 0
        ? 'You have no notes yet.'
        : `Your notes:\n\n${titles.map((t) => `- ${t}`).join('\n')}`;
    }
    case 'delete_note':
      return `${value}`;
    case 'count_primes':
      return `There are **${fmt(v.primes as number)}** primes below ${fmt(v.n as number)}. A worker did the counting, so the page kept drawing the whole time (watch the FPS meter).`;
    case 'run_javascript':
      return `The script ran in the sandbox (no network, no DOM, no storage; the tools it called ran in their workers):\n\n\`\`\`\n${value}\n\`\`\``;
    case 'draw_chart':
      return `Here it is: the worker drew it on an OffscreenCanvas and returned the PNG, which a real model would see beside the text. ${value}`;
    case 'slow_echo':
      return `The echo came back, word by word: “${value}”`;
    default:
      return `\`${name}\` returned: \`${JSON.stringify(value)}\``;
  }
}

/** One script, two tools: what "code mode" looks like. */
const CODE_MODE = `const product = await tools.calculator({ expression: '3 * 12' });
const distance = await tools.convert_units({ value: 42, from: 'km', to: 'miles' });
console.log('calculator said', product.result);
({ product: product.result, distance })`;

const HOSTILE = `Model text is untrusted, so the page treats it that way. This answer tries three tricks:

1. An image whose error handler runs script: <img src="x" onerror="window.__pwned = 'img'">
2. A script tag: <script>window.__pwned = 'script'</script>
3. A link to [javascript: code](javascript:window.__pwned='link') and <a href="javascript:window.__pwned='a'">another</a>.

All three arrive as plain Markdown and are rendered **inert**.`;

const MARKDOWN = `Answers render as **Markdown**, sanitised:

| Tool | Runs in | Network |
| --- | --- | --- |
| \`calculator\` | a worker | denied |
| \`remember\` | a worker | denied |

\`\`\`ts
for await (const ev of agent.stream('What is 3 * 12?')) render(ev);
\`\`\`

> Tools run away from the page: a slow one cannot freeze it.`;

const STORY = `Once upon a time, a web page wanted to ask a language model for help. The model answered with tool calls, and the page, eager to please, ran every one of them on its own main thread. ${'The first tool was slow, and the page froze while it worked; the person in front of it clicked and clicked, and nothing moved. '.repeat(2)}

So the page hired a moat. Each tool would now run in a worker of its own, behind a wall: no DOM to read, no cookies to take, no network unless the page allowed it. When a tool looped forever, the moat waited for its time limit, replaced the worker, and told the model what had happened. When a tool burned the CPU counting primes, the page kept drawing sixty frames a second.

${'The model went on asking, the tools went on answering, and the page stayed quick and safe. '.repeat(4)}

And the person, who never knew any of this, simply had a conversation. The end.`;
