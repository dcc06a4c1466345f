/**
 * Settings' MCP servers: add one by URL (with an Authorization header, or signing in by OAuth
 * when the server asks), see its tools, remove it. Kept in this browser's localStorage; a server that cannot be used says why
 * (a CORS refusal names the headers the server must send).
 */
import { type McpServer, mcpServer } from 'moat-sdk';
import { browserOAuth } from 'moat-sdk/mcp';
import { h } from './dom';

const KEY = 'moat-demo-mcp-servers';

export interface SavedServer {
  url: string;
  authorization?: string;
}

export function loadServers(storage: Storage = localStorage): SavedServer[] {
  try {
    const saved: unknown = JSON.parse(storage.getItem(KEY) ?? '[]');
    if (!Array.isArray(saved)) return [];
    return saved.flatMap((s) =>
      typeof s?.url === 'string'
        ? [{ url: s.url, ...(typeof s.authorization === 'string' ? { authorization: s.authorization } : {}) }]
        : [],
    );
  } catch {
    return [];
  }
}

function saveServers(servers: readonly SavedServer[], storage: Storage = localStorage): void {
  storage.setItem(KEY, JSON.stringify(servers));
}

/** The server's OAuth sign-in: a window to its authorization server, back to oauth-callback.html. */
const oauth = (url: string) =>
  browserOAuth({ url, redirectUrl: new URL('oauth-callback.html', location.href), clientName: 'Moat demo' });

/** With the Authorization header given, else signing in by OAuth if the server asks for it. */
export function connect(saved: SavedServer): McpServer {
  const { url, authorization } = saved;
  return authorization
    ? mcpServer({ url, headers: { Authorization: authorization } })
    : mcpServer({ url, authProvider: oauth(url) });
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/**
 * Wire the fieldset, and connect the servers saved before. `onChange` gets the servers to use
 * whenever that changes (each has listed its tools); a saved one that cannot be used now is
 * left out, and `onProblem` says why.
 */
export function setUpMcpServers(onChange: (servers: McpServer[]) => void, onProblem: (text: string) => void): void {
  const url = $<HTMLInputElement>('mcp-url');
  const auth = $<HTMLInputElement>('mcp-auth');
  const add = $<HTMLButtonElement>('mcp-add');
  const list = $<HTMLUListElement>('mcp-servers');
  const result = $<HTMLParagraphElement>('mcp-result');
  let saved = loadServers();
  const live = new Map<string, McpServer>();
  const say = (text: string, kind: 'ok' | 'error' | '') => {
    result.textContent = text;
    result.dataset.kind = kind;
  };
  const changed = () => onChange([...live.values()]);
  const remove = (gone: SavedServer) => {
    void live.get(gone.url)?.close();
    // Its tokens go too (none were kept for a server with a header).
    if (!gone.authorization) void oauth(gone.url).signOut();
    live.delete(gone.url);
    saved = saved.filter((s) => s !== gone);
    saveServers(saved);
    draw();
    changed();
    say(`Removed ${gone.url}`, '');
  };
  const draw = () =>
    list.replaceChildren(
      ...saved.map((s) => {
        const button = h('button', { type: 'button', 'aria-label': `Remove ${s.url}` }, 'Remove');
        button.addEventListener('click', () => remove(s));
        return h('li', {}, h('span', {}, s.url), button);
      }),
    );
  const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
  for (const entry of saved) {
    const server = connect(entry);
    server.specs().then(
      () => {
        live.set(entry.url, server);
        changed();
      },
      (error: unknown) => {
        void server.close();
        onProblem(`The MCP server ${entry.url} is left out: ${message(error)}`);
      },
    );
  }
  add.addEventListener('click', async () => {
    const entry: SavedServer = { url: url.value.trim(), ...(auth.value ? { authorization: auth.value } : {}) };
    add.disabled = true;
    say('Connecting…', '');
    let server: McpServer | undefined;
    try {
      if (saved.some((s) => s.url === entry.url)) throw new Error(`${entry.url} is added already`);
      server = connect(entry);
      const tools = await server.specs();
      saved = [...saved, entry];
      live.set(entry.url, server);
      saveServers(saved);
      draw();
      changed();
      url.value = '';
      auth.value = '';
      say(`Connected: ${tools.length} tools (${tools.map((t) => t.name).join(', ')})`, 'ok');
    } catch (error) {
      void server?.close();
      say(message(error), 'error');
    } finally {
      add.disabled = false;
    }
  });
  draw();
}
