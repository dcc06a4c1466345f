import { createWorkerPool, MoatError, openIndexedDBStore, resultValue } from 'moat';

const STORE = 'moat-demo-memory';

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

/** The "tools in a worker" panel: a pool of two workers, the network denied, a shared store. */
export function setUpWorkerTools(): void {
  const pool = createWorkerPool({
    worker: () => new Worker(new URL('./csp-tools.worker.ts', import.meta.url), { type: 'module' }),
    size: 2,
    timeoutMs: 30_000,
    network: 'deny',
    store: STORE,
  });
  const store = openIndexedDBStore(STORE);
  const output = $<HTMLPreElement>('tool-output');
  const progress = $<HTMLProgressElement>('prime-progress');
  const facts = $<HTMLUListElement>('facts');
  const ticks = $<HTMLSpanElement>('ticks');
  let calls = 0;
  const id = () => `demo_${++calls}`;
  const show = (text: string) => {
    output.textContent = text;
  };
  const failure = (error: unknown) => (MoatError.isInstance(error) ? `${error.name}: ${error.message}` : String(error));

  // A clock drawn by the page: it keeps moving while tools burn CPU in their workers.
  let frames = 0;
  const tick = () => {
    ticks.textContent = String(++frames);
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);

  const listFacts = async () => {
    const items = await store.search(['memory'], { limit: 50 });
    facts.replaceChildren(
      ...items.map((item) => {
        const li = document.createElement('li');
        li.textContent = `${item.key}: ${(item.value as { value: string }).value}`;
        return li;
      }),
    );
  };

  $<HTMLButtonElement>('run-primes').addEventListener('click', async () => {
    const n = Number($<HTMLInputElement>('prime-n').value);
    progress.value = 0;
    show('counting in a worker…');
    try {
      const result = await pool.call(
        { id: id(), name: 'count_primes', args: { n } },
        {
          onDelta: (delta) => {
            progress.value = (delta as { progress: number }).progress;
          },
        },
      );
      progress.value = 100;
      show(`count_primes(${n}) = ${resultValue(result)}`);
    } catch (error) {
      show(failure(error));
    }
  });

  $<HTMLFormElement>('remember-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const key = $<HTMLInputElement>('fact-key').value.trim();
    const value = $<HTMLInputElement>('fact-value').value;
    try {
      const result = await pool.call({ id: id(), name: 'remember', args: { key, value } });
      show(result.content);
      await listFacts();
    } catch (error) {
      show(failure(error));
    }
  });

  $<HTMLButtonElement>('try-network').addEventListener('click', async () => {
    try {
      await pool.call({ id: id(), name: 'fetch_page', args: { url: 'https://example.com/' } });
      show('the request went through');
    } catch (error) {
      show(failure(error));
    }
  });

  // A tool that allocates without end: its time limit stops it (and its worker) before it can
  // take the page down with it; `?hogMs=0` runs it with no limit, which crashes the page.
  $<HTMLButtonElement>('hog-memory').addEventListener('click', async () => {
    const limit = Number(new URLSearchParams(location.search).get('hogMs') ?? 1_500);
    show('a tool is eating memory…');
    try {
      await pool.call({ id: id(), name: 'hog_memory', args: {} }, { timeoutMs: limit > 0 ? limit : Infinity });
      show('it stopped by itself');
    } catch (error) {
      show(failure(error));
    }
  });

  void listFacts();
}
